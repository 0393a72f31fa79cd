import { serveRequests } from '../../lib/request-worker-entry.js';
import { readBulkBody, type BulkBodyRead } from './bulk-body-reader.js';

/** The bulk-body thread (bulk-body.ts): reads bulk write bodies off the event loop. */
serveRequests<string, BulkBodyRead>((text) => {
  const read = readBulkBody(text);
  return { output: read, transfer: read.kind === 'read' && read.packed.length > 0 ? [read.numbers.buffer] : [] };
});
