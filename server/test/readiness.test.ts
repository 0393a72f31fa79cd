import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/storage/migrations/index.js';
import { createScratchDatabase, startTestServer, type ScratchDatabase, type TestServer } from './test-server.js';

/**
 * `/api/_status` is liveness (the process answers); `/api/_ready` is readiness: 503 with a `detail`
 * while the database cannot be reached or lacks a migration, so a load balancer stops sending
 * requests that would all fail.
 */
async function probe(server: TestServer, route: '_status' | '_ready') {
  const res = await fetch(`${server.url}/api/${route}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('readiness', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 200 when the database answers and is migrated, without credentials', async () => {
    expect(await probe(server, '_ready')).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('answers 503 naming a migration the database lacks, while liveness stays 200', async () => {
    const latest = Object.keys(migrations).at(-1)!;
    const db = server.app.database.db;
    const { rows } = await sql<{ timestamp: string }>`SELECT timestamp FROM kysely_migration WHERE name = ${latest}`.execute(db);
    await sql`DELETE FROM kysely_migration WHERE name = ${latest}`.execute(db);
    try {
      expect(await probe(server, '_ready')).toEqual({ status: 503, body: { detail: `Database migrations not applied: ${latest}` } });
      expect((await probe(server, '_status')).status).toBe(200);
    } finally {
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${latest}, ${rows[0].timestamp})`.execute(db);
    }
    expect((await probe(server, '_ready')).status).toBe(200);
  });
});

/** A TCP relay in front of PostgreSQL: stopping it is the database going away, for this server only. */
function relay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let listener: net.Server | undefined;
  return {
    async start(port = 0): Promise<number> {
      listener = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => listener!.listen(port, '127.0.0.1', resolve));
      return (listener.address() as net.AddressInfo).port;
    },
    async stop(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => listener?.close(resolve));
    },
  };
}

const adminUrl = process.env.SCHOLIA_TEST_DATABASE_URL;

describe.runIf(adminUrl?.startsWith('postgres'))('readiness on PostgreSQL', () => {
  let scratch: ScratchDatabase;
  let server: TestServer;
  let proxy: ReturnType<typeof relay>;
  let port: number;
  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl!);
    const direct = new URL(scratch.url);
    proxy = relay({ host: direct.hostname, port: Number(direct.port || 5432) });
    port = await proxy.start();
    const relayed = new URL(scratch.url);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(port);
    server = await startTestServer({ env: { SCHOLIA_DATABASE_URL: relayed.toString(), SCHOLIA_PGVECTOR: 'off' } });
  });
  afterAll(async () => {
    await server.close();
    await proxy.stop();
    await scratch.drop();
  });

  it('answers 503 while PostgreSQL is unreachable and 200 once it is back; liveness stays 200', async () => {
    expect((await probe(server, '_ready')).status).toBe(200);
    await proxy.stop();
    const down = await probe(server, '_ready');
    expect(down.status).toBe(503);
    expect(down.body.detail).toMatch(/^The database cannot be reached \(\w+\)$/);
    expect((await probe(server, '_status')).status).toBe(200);
    await proxy.start(port);
    // The pool replaces the connections it lost on the next query.
    let back = await probe(server, '_ready');
    for (let attempt = 0; attempt < 5 && back.status !== 200; attempt++) back = await probe(server, '_ready');
    expect(back).toEqual({ status: 200, body: { status: 'ready' } });
  });
});
