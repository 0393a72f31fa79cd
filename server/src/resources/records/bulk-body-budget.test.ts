import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TestApi } from '../../../test/api-client.js';
import { seedDataset } from '../../../test/dataset-fixtures.js';
import { addMember, createUser, createWorkspace, type TestUser } from '../../../test/fixtures.js';
import { OWNER, startTestServer, type TestServer } from '../../../test/test-server.js';
import { BULK_BODY_MAX_BYTES } from '../../lib/work-limits.js';

/**
 * Bulk writes share a budget for their bodies in flight. A bulk body is held in flight by a raw
 * connection that sends its headers and the start of its body, then waits: its bytes are reserved
 * from the moment it is admitted until the connection ends.
 */
let server: TestServer | undefined;
afterEach(async () => server?.close());

async function setUp(env: Record<string, string> = {}) {
  server = await startTestServer({ env });
  const api = new TestApi(server.url);
  const workspace = await createWorkspace(api);
  const admin = await createUser(api, { role: 'admin' });
  await addMember(api, workspace.id, admin.id);
  const dataset = await seedDataset(server.app.database.db, server.app.database.dialect, { workspaceId: workspace.id });
  const url = `/datasets/${dataset.id}/records/bulk`;
  const write = (client: TestApi, name: string) => client.put(url, { items: [{ external_id: name, fields: { text: name } }] });
  return { server, api, admin, url, write, owner: api.as({ apiKey: OWNER.apiKey }) };
}

/** Sends a bulk write's headers declaring the largest body, and a first part of it. */
function startLargestBody(target: TestServer, url: string, writer: TestUser): net.Socket {
  const { port } = new URL(target.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    `PUT /api/v1${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Argilla-Api-Key: ${writer.apiKey}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${BULK_BODY_MAX_BYTES}\r\n\r\n{"items":[`,
  );
  return socket;
}

/** startLargestBody, resolved once its bytes are reserved. */
async function holdLargestBody(target: TestServer, url: string, writer: TestUser): Promise<net.Socket> {
  const socket = startLargestBody(target, url, writer);
  await until(() => target.app.bulkBodyBudget.reservedBytes >= BULK_BODY_MAX_BYTES);
  return socket;
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in 10 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Whether the promise has settled once `meanwhile` has run. */
async function settledAfter(promise: Promise<unknown>, meanwhile: () => Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  await meanwhile();
  return settled;
}

describe('bulk body budget', () => {
  it("makes a user's next bulk write wait while their earlier body fills their share, and lets other users write", async () => {
    const { server: target, admin, url, write, owner } = await setUp();
    const held = await holdLargestBody(target, url, admin);
    const waiting = write(admin.api, 'waits');
    await until(() => target.app.bulkBodyBudget.waitingCount === 1);
    expect(await settledAfter(waiting, async () => expect((await write(owner, 'goes ahead')).status).toBe(200))).toBe(false);
    held.destroy();
    expect((await waiting).status).toBe(200);
    await until(() => target.app.bulkBodyBudget.reservedBytes === 0);
  });

  it('makes every bulk write wait while the bodies in flight fill the server-wide budget', async () => {
    const { server: target, admin, url, write, owner } = await setUp({ SCHOLIA_BULK_BODIES_MIB: String(BULK_BODY_MAX_BYTES / 1024 / 1024) });
    const held = await holdLargestBody(target, url, admin);
    const waiting = write(owner, 'waits');
    await until(() => target.app.bulkBodyBudget.waitingCount === 1);
    // Requests that are not bulk writes are answered meanwhile.
    expect(await settledAfter(waiting, async () => expect((await owner.get('/me')).status).toBe(200))).toBe(false);
    held.destroy();
    expect((await waiting).status).toBe(200);
  });

  it('takes a waiting bulk write whose client went away out of the queue', async () => {
    const { server: target, admin, url } = await setUp();
    const held = await holdLargestBody(target, url, admin);
    const gone = startLargestBody(target, url, admin);
    await until(() => target.app.bulkBodyBudget.waitingCount === 1);
    gone.destroy();
    await until(() => target.app.bulkBodyBudget.waitingCount === 0);
    expect(target.app.bulkBodyBudget.reservedBytes).toBe(BULK_BODY_MAX_BYTES);
    held.destroy();
    await until(() => target.app.bulkBodyBudget.reservedBytes === 0);
  });

  it('refuses a bulk body past the bulk limit with 413 before reading it, naming the limit', async () => {
    const { admin, url } = await setUp();
    const text = 'x'.repeat(BULK_BODY_MAX_BYTES);
    const refused = await admin.api.sendJsonText('PUT', url, JSON.stringify({ items: [{ fields: { text } }] }));
    expect(refused.status).toBe(413);
    expect(refused.body.detail).toContain(`at most ${BULK_BODY_MAX_BYTES / 1024 / 1024} MiB`);
  });
});
