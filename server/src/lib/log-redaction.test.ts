import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { redactingLoggerOptions, redactText, redactUrl, redactValue } from './log-redaction.js';

describe('redactUrl', () => {
  it('replaces the value of every credential parameter, keeping the others', () => {
    expect(redactUrl('/api/v1/me?api_key=k1&token=t1&access_token=a1&include=x')).toBe(
      '/api/v1/me?api_key=[redacted]&token=[redacted]&access_token=[redacted]&include=x',
    );
    expect(redactUrl('/api/v1/oauth2/providers/huggingface/access-token?code=c&state=s')).toBe(
      '/api/v1/oauth2/providers/huggingface/access-token?code=[redacted]&state=[redacted]',
    );
    expect(redactUrl('/x?password=p&X-Argilla-Api-Key=k&Authorization=b&cookie=c')).toBe(
      '/x?password=[redacted]&X-Argilla-Api-Key=[redacted]&Authorization=[redacted]&cookie=[redacted]',
    );
  });

  it('reads names as the server does: any case, percent-encoded, repeated, without a value, with a prefix', () => {
    expect(redactUrl('/x?API_KEY=1&api%5Fkey=2&token=3&token=4&token&hf_token=5&new-password=6')).toBe(
      '/x?API_KEY=[redacted]&api%5Fkey=[redacted]&token=[redacted]&token=[redacted]&token=[redacted]&hf_token=[redacted]&new-password=[redacted]',
    );
  });

  it('leaves a URL without credentials as it is', () => {
    for (const url of ['/api/v1/me', '/api/v1/datasets/1/records?offset=0&limit=50&include=responses', '/x?', '/x?%zz=1']) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe('redactText', () => {
  it('replaces credentials quoted in a message: query strings, settings and Authorization values', () => {
    expect(redactText('GET /api/v1/me?token=abc failed')).toBe('GET /api/v1/me?token=[redacted] failed');
    expect(redactText('Route GET:/x?a=1&state=s2 not found')).toBe('Route GET:/x?a=1&state=[redacted] not found');
    expect(redactText('sent password=hunter2, api_key=k9')).toBe('sent password=[redacted], api_key=[redacted]');
    expect(redactText('header was Bearer eyJ.abc-def_ and Basic dXNlcjpw')).toBe('header was Bearer [redacted] and Basic [redacted]');
    expect(redactText('{"msg":"token=abc\\"def"}')).toBe('{"msg":"token=[redacted]\\"def"}');
    expect(redactText('limit=50 and offset=0')).toBe('limit=50 and offset=0');
  });
});

describe('redactValue', () => {
  it('replaces credential keys whole and scans strings, in nested plain objects and arrays', () => {
    const value = {
      headers: { authorization: 'Bearer t', Cookie: 'c=1', 'X-Argilla-Api-Key': 'k', 'set-cookie': ['s=1'], accept: 'json' },
      password: 'p',
      items: [{ url: '/x?access_token=a' }],
      code: 'FST_ERR_X',
      count: 3,
    };
    expect(redactValue(value)).toEqual({
      headers: { authorization: '[redacted]', Cookie: '[redacted]', 'X-Argilla-Api-Key': '[redacted]', 'set-cookie': '[redacted]', accept: 'json' },
      password: '[redacted]',
      items: [{ url: '/x?access_token=[redacted]' }],
      code: 'FST_ERR_X',
      count: 3,
    });
  });
});

/** A Fastify app logging at trace level into memory, as the server configures its logger. */
function loggingApp() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const app = Fastify({ logger: { ...redactingLoggerOptions('trace'), stream } });
  return { app, log: () => lines.join('') };
}

describe('redactingLoggerOptions', () => {
  it('logs request URLs redacted, and no headers', async () => {
    const { app, log } = loggingApp();
    app.get('/me', async (_request, reply) => reply.code(401).send({ detail: 'no' }));
    await app.inject({ url: '/me?api_key=secret-q1&limit=5', headers: { authorization: 'Bearer secret-h1', cookie: 'session=secret-h2' } });
    await app.close();
    expect(log()).toContain('"url":"/me?api_key=[redacted]&limit=5"');
    for (const secret of ['secret-q1', 'secret-h1', 'secret-h2']) expect(log()).not.toContain(secret);
  });

  it("redacts errors' messages, stacks and causes, and leaves out the properties libraries hang on them", async () => {
    const { app, log } = loggingApp();
    const error = Object.assign(new Error('fetch /token?code=secret-e1 failed', { cause: new Error('password=secret-e2') }), {
      code: 'E_FETCH',
      options: { headers: { authorization: 'secret-e3' } },
      body: 'secret-e4',
    });
    app.log.error({ err: error }, 'while signing in with Bearer secret-e5');
    app.log.warn({ request: { url: '/x?token=secret-e6', headers: { 'x-argilla-api-key': 'secret-e7' } } }, 'plain object');
    app.log.info('format %s', '/x?state=secret-e8');
    app.log.error(new Error('GET /x?access_token=secret-e9'));
    app.log.error({ err: new Error('password=secret-e10') });
    await app.close();
    const output = log();
    expect(output).toContain('"code":"E_FETCH"');
    expect(output).toContain('fetch /token?code=[redacted] failed');
    for (let i = 1; i <= 10; i += 1) expect(output).not.toContain(`secret-e${i}`);
    // Still one JSON object a line.
    for (const line of output.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });
});
