// Slow clients cannot hold the gateway's connections: a client dripping its headers or its body is
// answered 408 and disconnected once SERVER_HEADERS_TIMEOUT_MS / SERVER_REQUEST_TIMEOUT_MS pass, and
// past SERVER_MAX_CONNECTIONS new connections are dropped, so a real client gets in as soon as the
// drippers are gone. Node's defaults (60 s for headers, 300 s for a request, no cap) fail every case.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { silentLogger } from '../../src/log';
import { start } from '../../src/main';
import { type Sandbox, startSandbox } from '../../src/sandbox';

interface Client {
  readonly socket: Socket;
  /** Everything the server sent, once it closed the connection. */
  readonly closed: Promise<string>;
}

/** Opens a connection and keeps writing `drip` every 100 ms after `first`, until the server closes it. */
async function dripping(port: number, first: string, drip: string): Promise<Client> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  socket.on('data', (chunk) => {
    received += String(chunk);
  });
  socket.on('error', () => {});
  socket.write(first);
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(drip);
  }, 100);
  const closed = new Promise<string>((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      resolve(received);
    }),
  );
  return { socket, closed };
}

const HEAD = 'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\n';

describe('slow clients', () => {
  let sandbox: Sandbox;
  let running: Awaited<ReturnType<typeof start>>;
  let port = 0;

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: false });
    running = await start(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        NGROK_API_URL: sandbox.url,
        SERVER_HEADERS_TIMEOUT_MS: '1000',
        SERVER_REQUEST_TIMEOUT_MS: '2000',
        SERVER_MAX_CONNECTIONS: '10',
      }),
      () => {},
      silentLogger(),
    );
    port = Number(new URL(running.url).port);
  });
  afterAll(async () => {
    await running?.close();
    await sandbox?.close();
  });

  it('answers 408 and disconnects a client that drips its headers', async () => {
    const client = await dripping(port, HEAD, 'X-Drip: 1\r\n');
    expect(await client.closed).toMatch(/^HTTP\/1\.1 408 /);
  }, 15_000);

  it('answers 408 and disconnects a client that drips its body', async () => {
    const client = await dripping(
      port,
      `${HEAD}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"query":"`,
      ' ',
    );
    expect(await client.closed).toMatch(/^HTTP\/1\.1 408 /);
  }, 15_000);

  it('drops connections past the cap, and answers a real client once the drippers are closed', async () => {
    const drippers: Client[] = [];
    for (let i = 0; i < 10; i += 1) drippers.push(await dripping(port, HEAD, 'X-Drip: 1\r\n'));
    // The eleventh is closed at once, without an answer.
    const extra = await dripping(port, HEAD, 'X-Drip: 1\r\n');
    expect(await extra.closed).toBe('');
    expect(drippers.every((d) => !d.socket.destroyed)).toBe(true);
    // The drippers are cut after the headers timeout, which frees the slots.
    for (const d of drippers) expect(await d.closed).toMatch(/^HTTP\/1\.1 408 /);
    const response = await fetch(running.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.keys[0]}` },
      body: JSON.stringify({ query: '{ tunnels(first: 1) { nodes { id } } }' }),
    });
    expect(response.status).toBe(200);
    expect(
      ((await response.json()) as { data: { tunnels: { nodes: unknown[] } } }).data.tunnels.nodes,
    ).toHaveLength(1);
  }, 20_000);

  it('refuses a headers timeout longer than the request timeout at start-up', () => {
    expect(() =>
      loadConfig({ SERVER_HEADERS_TIMEOUT_MS: '5000', SERVER_REQUEST_TIMEOUT_MS: '1000' }),
    ).toThrow(/^SERVER_HEADERS_TIMEOUT_MS: must not exceed SERVER_REQUEST_TIMEOUT_MS/);
  });
});
