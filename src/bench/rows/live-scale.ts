// The live-scale mode of the benchmark (`npm run bench -- --live-scale [--seconds N]`): one account
// with 10,000 cloud endpoints on 20 wildcard reserved domains; 500 endpointEvents(includeCurrent:
// true) subscribers over SSE, each joining every event's endpoint to its domain, spread round-robin
// over 3 replicas (the built gateway, 128 MB heap) sharing one redis-server, all subscribing at once,
// 100 of them never reading (raw sockets, paused); a fourth replica of the cluster with one reader
// alone, the control; one endpoint changed upstream every 100 ms. It reports whether every reading
// subscriber got the whole list and then every change exactly once, each replica's peak RSS, the
// cluster's list pages per minute against the poll budget, and each replica's join calls beside the
// control's (one subscriber's). The stand-in runs in this process.
import { connect, type Socket } from 'node:net';
import { type AccountSeed, type CloudEndpoint, newId, type Sandbox, startSandbox } from '../../sandbox';
import { MINUTE_MS } from '../../time';
import { openEventStream } from '../harness/event-stream';
import { type GatewayProcess, residentMb, startGateway } from '../processes/processes';
import { GATEWAY_ENTRY, log } from '../shared';
import { startRedis } from './replicas';

const KEY = 'bench-live-scale';
const ENDPOINTS = 10_000;
/** Wildcard reserved domains the endpoints are spread over: each event joins its endpoint's. */
const DOMAINS = 20;
const SUBSCRIBERS = 500;
const NON_READERS = 100;
const REPLICAS = 3;
const CHANGE_EVERY_MS = 100;
const POLL_BUDGET_PER_MIN = 1_200;
const QUERY = JSON.stringify({
  query:
    'subscription { endpointEvents(includeCurrent: true) { kind endpointId endpoint { id updatedAt domain { node { ... on ReservedDomain { id domain } } } } } }',
});
/** How long the whole list may take to reach every reader, and the last changes after the churn. */
const LIST_DEADLINE_MS = 15 * MINUTE_MS;
const DRAIN_DEADLINE_MS = 2 * MINUTE_MS;

export interface LiveScaleResult {
  readonly endpoints: number;
  readonly readers: number;
  readonly nonReaders: number;
  readonly replicas: number;
  readonly seconds: number;
  readonly listSeconds: number;
  readonly changes: number;
  /** Readers that got the whole list, then every change exactly once and nothing else. */
  readonly exact: number;
  readonly missing: number;
  readonly repeated: number;
  /** Readers whose stream ended before the run did (dropped, or cut). */
  readonly ended: number;
  readonly peakRssMb: readonly number[];
  /** The control replica's: one reader alone, and whether it got everything exactly once. */
  readonly control: { readonly peakRssMb: number; readonly exact: boolean };
  /** List pages per minute of the change phase, for the cluster. */
  readonly callsPerMin: number;
  readonly listCalls: number;
  /** Calls other than list pages in the change phase, for the cluster (the joins). */
  readonly otherCalls: number;
  /** Each replica's join calls (domain lookups) while the list was read and during the changes; the control's last. */
  readonly joins: readonly { readonly list: number; readonly changes: number }[];
  readonly pollBudgetPerMin: number;
  readonly droppedNonReaders: number;
}

interface Reader {
  online: number;
  readonly updated: Map<string, number>;
  ended: boolean;
}

function seeds(): AccountSeed & { endpoints: CloudEndpoint[] } {
  const start = Date.parse('2025-06-01T00:00:00Z');
  const reservedDomains = Array.from({ length: DOMAINS }, (_, d) => ({
    id: newId('rd', new Date(start)),
    created_at: new Date(start).toISOString(),
    domain: `*.d${d}.scale.example.com`,
  }));
  const endpoints = Array.from({ length: ENDPOINTS }, (_, i) => {
    const created = new Date(start + i * 1000);
    return {
      id: newId('ep', created),
      url: `https://scale-${i}.d${i % DOMAINS}.scale.example.com`,
      created_at: created.toISOString(),
      updated_at: created.toISOString(),
      traffic_policy: '{"on_http_request":[]}',
      bindings: ['public'],
    };
  });
  return { tunnels: [], reservedDomains, endpoints };
}

/** A replica's domain lookups so far, from its /metrics. */
async function joinCalls(gateway: GatewayProcess): Promise<number> {
  const text = await (await fetch(gateway.url.replace(/\/graphql$/, '/metrics'))).text();
  let calls = 0;
  for (const m of text.matchAll(
    /^gateway_upstream_requests_total\{[^}]*route="listReservedDomains"[^}]*\} (\d+)/gm,
  ))
    calls += Number(m[1]);
  return calls;
}

/** An SSE subscriber that reads everything, counting ONLINE and each endpoint's UPDATED. */
async function reader(url: string, signal: AbortSignal): Promise<Reader> {
  const r: Reader = { online: 0, updated: new Map(), ended: false };
  const stream = await openEventStream(url, KEY, QUERY, signal);
  void (async () => {
    let buffer = '';
    for (;;) {
      const { done, value } = await stream.read();
      if (done) break;
      buffer += value;
      const end = buffer.lastIndexOf('\n\n');
      if (end === -1) continue;
      for (const m of buffer.slice(0, end).matchAll(/"kind":"(\w+)","endpointId":"(\w+)"/g)) {
        if (m[1] === 'ONLINE') r.online += 1;
        else if (m[1] === 'UPDATED') r.updated.set(m[2] ?? '', (r.updated.get(m[2] ?? '') ?? 0) + 1);
      }
      buffer = buffer.slice(end + 2);
    }
  })()
    .catch(() => {})
    .finally(() => {
      r.ended = true;
    });
  return r;
}

/** An SSE subscriber over a raw socket that never reads; `closed` once the gateway cut it. */
async function nonReader(url: string): Promise<{ socket: Socket; closed: () => boolean }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${KEY}\r\nContent-Length: ${Buffer.byteLength(QUERY)}\r\n\r\n${QUERY}`,
  );
  socket.pause();
  socket.on('error', () => {});
  let closed = false;
  socket.once('close', () => {
    closed = true;
  });
  return { socket, closed: () => closed };
}

async function waitFor(condition: () => boolean, deadlineMs: number): Promise<boolean> {
  const deadline = performance.now() + deadlineMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
}

/** Changes endpoint after endpoint (oldest first, each once) every CHANGE_EVERY_MS for `seconds`. */
async function churn(sandbox: Sandbox, ids: readonly string[], seconds: number): Promise<string[]> {
  const changed: string[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const id = ids[changed.length % ids.length] ?? '';
    sandbox.touchEndpoint(KEY, id);
    changed.push(id);
    await new Promise((resolve) => setTimeout(resolve, CHANGE_EVERY_MS));
  }
  return changed;
}

export async function measureLiveScale(options: {
  seconds: number;
  nodeArgs: readonly string[];
}): Promise<LiveScaleResult> {
  const redis = await startRedis();
  if (!redis) throw new Error('--live-scale needs /usr/bin/redis-server');
  const seed = seeds();
  const { endpoints } = seed;
  const sandbox = await startSandbox({ rateLimit: false, accounts: { [KEY]: seed } });
  const gateways: GatewayProcess[] = [];
  const abort = new AbortController();
  const sockets: Socket[] = [];
  try {
    const env = {
      NGROK_API_URL: sandbox.url,
      NODE_ENV: 'production',
      REDIS_URL: redis.url,
      REDIS_FALLBACK_REPLICAS: String(REPLICAS),
      UPSTREAM_RATE_LIMIT_PER_MIN: '0',
      LIVE_POLL_INTERVAL_MS: '1000',
      LIVE_POLL_BUDGET_PER_MIN: String(POLL_BUDGET_PER_MIN),
      LIVE_MAX_SUBSCRIPTIONS_PER_CREDENTIAL: String(SUBSCRIBERS),
    };
    // The last one is the control: one reader alone.
    for (let i = 0; i <= REPLICAS; i += 1)
      gateways.push(
        await startGateway(GATEWAY_ENTRY, env, { nodeArgs: options.nodeArgs, timeoutMs: 30_000 }),
      );
    const began = performance.now();
    // Every subscriber at once: on a loaded machine, one after the other took longer than the list itself.
    const urls = Array.from({ length: SUBSCRIBERS }, (_, i) => gateways[i % REPLICAS]?.url ?? '');
    const silentAt = (i: number) => i % (SUBSCRIBERS / NON_READERS) === 0;
    const silent = await Promise.all(urls.filter((_, i) => silentAt(i)).map((url) => nonReader(url)));
    sockets.push(...silent.map((s) => s.socket));
    const readers = await Promise.all(
      urls.filter((_, i) => !silentAt(i)).map((url) => reader(url, abort.signal)),
    );
    const control = await reader(gateways[REPLICAS]?.url ?? '', abort.signal);
    log(`  live-scale: ${readers.length} readers, ${silent.length} non-readers and the control subscribed`);
    const listed = await waitFor(
      () => [...readers, control].every((r) => r.online >= ENDPOINTS),
      LIST_DEADLINE_MS,
    );
    const listSeconds = (performance.now() - began) / 1000;
    log(
      `  live-scale: the list of ${ENDPOINTS} ${listed ? 'reached every reader' : 'did NOT reach every reader'} in ${listSeconds.toFixed(0)} s`,
    );

    const listJoins = await Promise.all(gateways.map(joinCalls));
    sandbox.resetCalls();
    const started = performance.now();
    const changed = await churn(
      sandbox,
      endpoints.map((e) => e.id),
      options.seconds,
    );
    const everyChange = (r: Reader) => changed.every((id) => r.updated.has(id));
    await waitFor(() => [...readers, control].every(everyChange), DRAIN_DEADLINE_MS);
    const minutes = (performance.now() - started) / MINUTE_MS;
    const changeJoins = await Promise.all(gateways.map(joinCalls));
    const listCalls = sandbox.calls('listEndpoints', KEY);
    const otherCalls = sandbox.calls(undefined, KEY) - listCalls;
    const repeated = readers.filter((r) => [...r.updated.values()].some((n) => n > 1)).length;
    const missing = readers.filter((r) => !everyChange(r)).length;
    const isExact = (r: Reader) =>
      r.online === ENDPOINTS &&
      r.updated.size === changed.length &&
      everyChange(r) &&
      ![...r.updated.values()].some((n) => n > 1);
    const peakRssMb = gateways.map((g) => residentMb(g.pid, 'VmHWM') ?? Number.NaN);
    return {
      endpoints: ENDPOINTS,
      readers: readers.length,
      nonReaders: silent.length,
      replicas: REPLICAS,
      seconds: options.seconds,
      listSeconds,
      changes: changed.length,
      exact: readers.filter(isExact).length,
      missing,
      repeated,
      ended: readers.filter((r) => r.ended).length,
      peakRssMb: peakRssMb.slice(0, REPLICAS),
      control: { peakRssMb: peakRssMb[REPLICAS] ?? Number.NaN, exact: isExact(control) },
      callsPerMin: listCalls / minutes,
      listCalls,
      otherCalls,
      joins: listJoins.map((list, i) => ({ list, changes: (changeJoins[i] ?? 0) - list })),
      pollBudgetPerMin: POLL_BUDGET_PER_MIN,
      droppedNonReaders: silent.filter((s) => s.closed()).length,
    };
  } finally {
    abort.abort();
    for (const socket of sockets) socket.destroy();
    for (const g of gateways) await g.stop();
    await sandbox.close();
    redis.child.kill('SIGKILL');
  }
}

/** The figures as the bench prints them. */
export function liveScaleLines(r: LiveScaleResult): string[] {
  return [
    `live-scale: ${r.endpoints} endpoints, ${r.readers} reading + ${r.nonReaders} non-reading includeCurrent subscribers on ${r.replicas} replicas, one change every ${CHANGE_EVERY_MS} ms for ${r.seconds} s`,
    `  whole list at every reader after ${r.listSeconds.toFixed(0)} s (from the first subscription)`,
    `  ${r.changes} changes: ${r.exact}/${r.readers} readers got the list and every change exactly once; ${r.missing} missed a change, ${r.repeated} got one twice, ${r.ended} had their stream end`,
    `  peak RSS per replica: ${r.peakRssMb.map((mb) => `${mb.toFixed(0)} MB`).join(', ')} (target <= 200 MB, 128 MB heap); the control's ${r.control.peakRssMb.toFixed(0)} MB, its reader ${r.control.exact ? 'exact' : 'NOT exact'}`,
    `  list pages: ${r.callsPerMin.toFixed(0)}/min for the cluster (poll budget ${r.pollBudgetPerMin}/min for the account), ${r.listCalls} in all; ${r.otherCalls} other calls (joins, all replicas)`,
    `  join calls per replica, list / changes: ${r.joins.map((j) => `${j.list} / ${j.changes}`).join(', ')} (the last: the control, one subscriber)`,
    `  non-readers cut by the gateway by the end: ${r.droppedNonReaders}/${r.nonReaders}`,
  ];
}
