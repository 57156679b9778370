// What `npm start` tells the operator: the address actually bound (every interface said as such,
// not disguised as localhost), that the embedded stand-in needs no Authorization header, and that a
// caller of start() can own the request log (tests keep it off stdout).
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createLogger, silentLogger } from '../../src/log';
import { start } from '../../src/main';
import { type Sandbox, startSandbox } from '../../src/sandbox';

describe('start-up lines', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: false });
  });
  afterAll(() => sandbox.close());

  it('on the embedded stand-in: loopback, and no Authorization header needed', async () => {
    const lines: string[] = [];
    const running = await start(
      loadConfig({ PORT: '0', NODE_ENV: 'test' }),
      (l) => lines.push(l),
      silentLogger(),
    );
    try {
      const port = new URL(running.url).port;
      expect(running.url).toBe(`http://127.0.0.1:${port}/graphql`);
      expect(lines).toEqual([
        `GraphQL gateway listening on http://127.0.0.1:${port}/graphql (GraphiQL: open it in a browser)`,
        `Probes and metrics: http://127.0.0.1:${port}/health, /readiness, /metrics`,
        expect.stringMatching(
          /^Upstream: a local stand-in of the ngrok API with demo data at http:\/\/127\.0\.0\.1:\d+ \(no real account is used\)\. No Authorization header is needed: the gateway holds the stand-in's key\.$/,
        ),
      ]);
    } finally {
      await running.close();
    }
  });

  it('on every interface: shows 0.0.0.0 and says it is reachable from other machines', async () => {
    const lines: string[] = [];
    const running = await start(
      loadConfig({ PORT: '0', HOST: '0.0.0.0', NODE_ENV: 'test', NGROK_API_URL: sandbox.url }),
      (l) => lines.push(l),
      silentLogger(),
    );
    try {
      const port = new URL(running.url).port;
      expect(running.url).toBe(`http://localhost:${port}/graphql`);
      expect(lines[0]).toBe(
        `GraphQL gateway listening on http://0.0.0.0:${port}/graphql (every interface: reachable from other machines; here http://localhost:${port}/graphql) (GraphiQL: open it in a browser)`,
      );
      expect(lines[2]).toBe(`Upstream: ${sandbox.url} (each client forwards its own API key).`);
    } finally {
      await running.close();
    }
  });

  it('writes request lines to the logger it is given, not to stdout', async () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test', NGROK_API_URL: sandbox.url });
    const running = await start(config, () => {}, createLogger(config, stream));
    try {
      const response = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.keys[0]}` },
        body: JSON.stringify({ query: 'query Startup { tunnels(first: 1) { nodes { id } } }' }),
      });
      expect(response.status).toBe(200);
      const lines = chunks.map((c) => JSON.parse(c) as Record<string, unknown>);
      expect(lines.filter((l) => l.msg === 'request').map((l) => l.operationName)).toEqual(['Startup']);
    } finally {
      await running.close();
    }
  });
});
