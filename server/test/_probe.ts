import { startTestServer } from './test-server.ts';
const s = await startTestServer();
const paths = ['/api/v1/users', '/api/%761/users', '/api/v1/%75sers', '/api/v1//users', '/API/V1/users', '/api/v1/users?x=1', '/api/v1/users/', '//api/v1/users', '/api/v1/users;x', '/api/v1/users%3F', '/api/./v1/users', '/api/v1/me/../users'];
for (const p of paths) {
  const r = await fetch(s.url + p);
  console.log(p, r.status, (await r.text()).slice(0, 120));
}
// raw request for non-normalized path
import net from 'node:net';
const port = new URL(s.url).port;
for (const p of ['/api/v1/../v1/users', '/api/v1/./users', 'http://x/api/v1/users', '*']) {
  await new Promise<void>((res) => {
    const c = net.connect(Number(port), '127.0.0.1', () => c.write(`GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let d = ''; c.on('data', (b) => (d += b)); c.on('end', () => { console.log('RAW', p, d.split('\r\n')[0], d.slice(d.indexOf('\r\n\r\n') + 4, d.indexOf('\r\n\r\n') + 124)); res(); });
  });
}
await s.close();
