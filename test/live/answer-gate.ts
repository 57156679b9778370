// An HTTP relay between the gateway and the stand-in that can hold the answers to writes (POST, PATCH,
// DELETE) until released: the write has landed upstream, and reads (the live poller's walks) see it,
// but the gateway has not heard back yet, as with a slow network on the way back.
import { createServer, type IncomingMessage } from 'node:http';
import { listen } from '../support/stack';

export interface AnswerGate {
  readonly url: string;
  /** Where requests go; set once the stand-in runs. */
  target: string;
  /** Holds the answers of writes from now on. */
  hold(): void;
  /** Sends the answers held so far, and those of later writes at once. */
  release(): void;
  /** Write answers waiting now. */
  held(): number;
  close(): Promise<void>;
}

/** Headers the relay sets itself (it sends the body whole, uncompressed). */
const HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'host',
]);

/** The request's body (JSON text, from the gateway), or none. */
async function bodyOf(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks).toString('utf8');
}

export async function startAnswerGate(): Promise<AnswerGate> {
  let gate: Promise<void> | undefined;
  let open = () => {};
  let waiting = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && !HOP.has(name)) headers[name] = value;
      const method = req.method ?? 'GET';
      const answer = await fetch(`${relay.target}${req.url ?? '/'}`, {
        method,
        headers,
        body: await bodyOf(req),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      if (method !== 'GET' && gate) {
        waiting += 1;
        await gate;
        waiting -= 1;
      }
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP.has(name)) out[name] = value;
      });
      res.writeHead(answer.status, { ...out, 'content-length': String(body.length) });
      res.end(body);
    })().catch(() => res.destroy());
  });
  const relay: AnswerGate = {
    url: await listen(server),
    target: '',
    hold() {
      gate ??= new Promise((resolve) => {
        open = resolve;
      });
    },
    release() {
      gate = undefined;
      open();
    },
    held: () => waiting,
    async close() {
      relay.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return relay;
}
