import { describe, expect, it } from 'vitest';
import { unsupportedNodeMessage } from './supported-node.js';

describe('supported Node.js versions', () => {
  it('accepts the LTS releases 22 and 24 and later majors', () => {
    for (const version of ['v22.12.0', 'v22.23.3', 'v24.21.0', 'v26.1.0']) expect(unsupportedNodeMessage(version)).toBeUndefined();
  });

  it('refuses older releases with one line naming the running version', () => {
    const message = unsupportedNodeMessage('v20.20.2');
    expect(message).toContain('Node.js 22 or 24');
    expect(message).toContain('v20.20.2');
    expect(message).not.toContain('\n');
    expect(unsupportedNodeMessage('v18.20.0')).toContain('v18.20.0');
  });
});
