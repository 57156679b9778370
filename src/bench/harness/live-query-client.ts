// One live query client of the live-queries run: an SSE stream (harness/event-stream.ts) whose
// payloads are kept, and the data they add up to, applied as a client would with
// @n1ru4l/graphql-live-query-patch-json-patch's applyLiveQueryJSONPatch.
import { applyLiveQueryJSONPatch } from '@n1ru4l/graphql-live-query-patch-json-patch';
import { openEventStream } from './event-stream';

export interface LiveQueryPayload {
  readonly data?: Record<string, unknown> | null;
  readonly patch?: unknown[];
  readonly revision?: number;
  readonly errors?: readonly { readonly message: string }[];
}

export class LiveQueryClient {
  readonly payloads: LiveQueryPayload[] = [];
  /** Set once the stream ended (the gateway completed or cut it, or it broke). */
  ended = false;
  private applied: { count: number; data: unknown } = { count: 0, data: undefined };

  private constructor(private readonly abort: AbortController) {}

  /** Opens `query` with `variables` at `url` over SSE with `key`'s credential. */
  static async open(
    url: string,
    key: string,
    query: string,
    variables: Readonly<Record<string, unknown>>,
  ): Promise<LiveQueryClient> {
    const abort = new AbortController();
    const client = new LiveQueryClient(abort);
    const reader = await openEventStream(url, key, JSON.stringify({ query, variables }), abort.signal);
    void (async () => {
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: next$/m.test(block) && data)
            client.payloads.push(JSON.parse(data) as LiveQueryPayload);
        }
      }
    })()
      .catch(() => {})
      .finally(() => {
        client.ended = true;
      });
    return client;
  }

  /** Payloads with errors, the first result's included. */
  get errors(): number {
    return this.payloads.filter((p) => (p.errors?.length ?? 0) > 0).length;
  }

  /** The data every payload so far adds up to (applyLiveQueryJSONPatch over copies of them). */
  async data(): Promise<unknown> {
    const count = this.payloads.length;
    if (count === this.applied.count) return this.applied.data;
    const copies = this.payloads.slice(0, count).map((p) => structuredClone(p));
    async function* replay() {
      yield* copies;
    }
    let data: unknown;
    for await (const value of applyLiveQueryJSONPatch(replay() as never))
      data = (value as LiveQueryPayload).data;
    this.applied = { count, data };
    return data;
  }

  close(): void {
    this.abort.abort();
  }
}
