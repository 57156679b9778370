// Load over loopback. Peak throughput: autocannon, closed loop, each connection its own
// autocannon instance with its own headers and body (autocannon shares request objects between
// the connections of one instance, so this is how a connection gets its own credential).
// Latency at a fixed rate: a paced open loop here, because autocannon's rate option sends each
// second's budget in one burst. Latencies are recorded here at full precision either way
// (autocannon's histogram keeps whole milliseconds only).
import autocannon from 'autocannon';
import { Client } from 'undici';

export interface Connection {
  readonly headers: Readonly<Record<string, string>>;
  /** A JSON body (POST); absent: GET. */
  readonly body?: string;
}

export interface LoadSpec {
  /** Origin and path, e.g. http://127.0.0.1:4000/graphql. */
  readonly url: string;
  readonly connections: readonly Connection[];
  readonly seconds: number;
}

export interface LoadResult {
  /** 2xx answers. */
  readonly ok: number;
  /** Non-2xx answers, connection errors and timeouts. */
  readonly failed: number;
  readonly seconds: number;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
}

class Latencies {
  private values = new Float64Array(1 << 16);
  private size = 0;

  add(ms: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.size++] = ms;
  }

  percentile(p: number): number {
    if (this.size === 0) return Number.NaN;
    const sorted = this.values.subarray(0, this.size).sort();
    return sorted[Math.min(this.size - 1, Math.ceil((p / 100) * this.size) - 1)] ?? Number.NaN;
  }
}

const headersOf = (c: Connection): Record<string, string> =>
  c.body === undefined ? { ...c.headers } : { 'content-type': 'application/json', ...c.headers };

/** The measured phase's figures, from its counts, its start time and its latencies. */
function summarize(ok: number, failed: number, started: number, latencies: Latencies): LoadResult {
  const seconds = (performance.now() - started) / 1000;
  return {
    ok,
    failed,
    seconds,
    rps: ok / seconds,
    p50: latencies.percentile(50),
    p99: latencies.percentile(99),
  };
}

/** As many requests as the server answers, one in flight per connection, for `seconds`. */
export async function saturate(spec: LoadSpec): Promise<LoadResult> {
  const latencies = new Latencies();
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    spec.connections.map(
      (connection) =>
        new Promise<void>((resolve, reject) => {
          const instance = autocannon(
            {
              url: spec.url,
              method: connection.body === undefined ? 'GET' : 'POST',
              body: connection.body,
              headers: headersOf(connection),
              connections: 1,
              duration: spec.seconds,
              timeout: 10,
            },
            (error: unknown) => (error ? reject(error) : resolve()),
          );
          instance.on('response', (_client, status, _bytes, ms) => {
            if (status >= 200 && status < 300) {
              ok += 1;
              latencies.add(ms);
            } else failed += 1;
          });
          instance.on('reqError', () => {
            failed += 1;
          });
        }),
    ),
  );
  return summarize(ok, failed, started, latencies);
}

/**
 * `rate` requests per second, evenly spread (an open loop: a slow answer does not delay the next
 * request), round-robin over the connections; latency is measured from the moment a request is
 * handed to its connection, so waiting behind a slow answer on that connection counts.
 */
export async function paced(spec: LoadSpec & { readonly rate: number }): Promise<LoadResult> {
  const url = new URL(spec.url);
  const clients = spec.connections.map(() => new Client(url.origin, { pipelining: 1 }));
  const latencies = new Latencies();
  const total = Math.max(1, Math.round(spec.rate * spec.seconds));
  const inFlight = new Set<Promise<void>>();
  let ok = 0;
  let failed = 0;
  let sent = 0;
  const started = performance.now();

  const send = (index: number) => {
    const connection = spec.connections[index % spec.connections.length] as Connection;
    const client = clients[index % clients.length] as Client;
    const at = performance.now();
    const request = client
      .request({
        path: `${url.pathname}${url.search}`,
        method: connection.body === undefined ? 'GET' : 'POST',
        headers: headersOf(connection),
        body: connection.body,
      })
      .then(async (response) => {
        await response.body.dump();
        if (response.statusCode >= 200 && response.statusCode < 300) {
          ok += 1;
          latencies.add(performance.now() - at);
        } else failed += 1;
      })
      .catch(() => {
        failed += 1;
      })
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  };

  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * spec.rate));
      while (sent < due) send(sent++);
      if (sent >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all([...inFlight]);
  const result = summarize(ok, failed, started, latencies);
  await Promise.all(clients.map((c) => c.close()));
  return result;
}
