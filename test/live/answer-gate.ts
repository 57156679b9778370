// An HTTP relay between the gateway and the stand-in that can hold answers until released: a write
// (POST, PATCH, DELETE) has landed upstream and reads see it, but the gateway has not heard back yet;
// or a walk's later page is late, so the walk ends after writes made meanwhile.
import { createServer, type IncomingMessage } from 'node:http';
import { listen } from '../support/stack';

export interface AnswerGate {
  readonly url: string;
  /** Where requests go; set once the stand-in runs. */
  target: string;
  /** Holds the answers to the requests `which` picks (default: writes) from now on. */
  hold(which?: Pick): void;
  /** Sends the answers held so far, and later ones at once. */
  release(): void;
  /** Answers waiting now. */
  held(): number;
  close(): Promise<void>;
}

/** Which requests' answers to hold. */
type Pick = (method: string, url: string) => boolean;

const isWrite: Pick = (method) => method !== 'GET';

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
  let picks: Pick = isWrite;
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
      if (gate && picks(method, req.url ?? '/')) {
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
    hold(which = isWrite) {
      picks = which;
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
