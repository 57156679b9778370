// A bounded load test on loopback: mutations and reads run concurrently against a stand-in that
// fails at random (seeded), and afterwards the stand-in's state is checked against the writes the
// gateway acknowledged: no write lost, none sent twice, no crash. It stops by itself (a few hundred
// operations, a time cap of half a minute). A write the gateway refused without sending (its circuit
// open) is tried again after the cool-down, as its message asks, and does not count: every writer
// sends its number of writes however the circuit's openings fall on a loaded machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountSeed, type Fault, makeTunnels, newId, type RouteName } from '../../src/sandbox';
import { DELETE, REPLACE } from '../support/fixtures';
import { KEY, type Stack, startStack } from '../support/stack';

const SEED = 0x5eed;
const ROUTES = 6;
const WRITES_PER_ROUTE = 30;
/** Writes a writer may try (those refused unsent included) before it stops. */
const TRIES_PER_ROUTE = 4 * WRITES_PER_ROUTE;
const READERS = 4;
const READS_PER_READER = 40;
const FAULT_RATE = 0.25;
const TIME_CAP_MS = 30_000;
const COOLDOWN_MS = 100;
const MAX_CONCURRENCY = 4;

/** mulberry32: a small seeded generator, so a failing run can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FAULTS: Fault[] = [
  { kind: 'status', status: 503 },
  { kind: 'status', status: 502 },
  { kind: 'status', status: 500 },
  { kind: 'rateLimit', retryAfter: 0 },
  { kind: 'html' },
  { kind: 'drop' },
  { kind: 'hang' },
  // Late faults: the upstream acts, then the answer is damaged on its way back.
  { kind: 'truncatedJson' },
  { kind: 'malformedJson' },
];

const edge = newId('edghts');
const routeIds = Array.from({ length: ROUTES }, () => newId('edghtsrt'));
const backends = Array.from({ length: ROUTES * TRIES_PER_ROUTE + ROUTES }, () => newId('bkdtg'));
const tunnels = makeTunnels(5, { seed: 77 });
const seed: AccountSeed = {
  tunnels,
  edges: [
    {
      id: edge,
      routes: routeIds.map((id, i) => ({ id, backend: { backendId: backends[i] ?? '', enabled: true } })),
    },
  ],
  backends,
};

const READ = `query($edgeId: ID!, $routeId: ID!) {
  httpsEdgeRouteBackend(edgeId: $edgeId, routeId: $routeId) { enabled backend { id } }
  tunnels(first: 2) { nodes { id } }
}`;

/** Messages of refusals made inside the gateway: such a write never left it. */
const NOT_SENT = new Set([
  'The ngrok API is failing; the gateway pauses calls to it for a moment. Retry shortly.',
  'Too many simultaneous ngrok API calls for this credential; retry shortly.',
]);
const KNOWN_CODES = new Set([
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_BAD_RESPONSE',
  'RATE_LIMITED',
]);

type Outcome = 'acknowledged' | 'failed-after-send' | 'never-sent';
interface Write {
  /** The backend it sets; null for a delete. */
  backend: string | null;
  outcome: Outcome;
}

describe('bounded load against a flaky upstream', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      accounts: { [KEY]: seed },
      sandbox: { maxConcurrentPerKey: MAX_CONCURRENCY, edgesWritable: true },
      env: {
        UPSTREAM_TIMEOUT_MS: '500',
        UPSTREAM_RETRY_BASE_MS: '5',
        UPSTREAM_MAX_CONCURRENCY: String(MAX_CONCURRENCY),
        UPSTREAM_QUEUE_LIMIT: '20',
        BREAKER_FAILURE_THRESHOLD: '3',
        BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
      },
    });
  });
  afterAll(() => h.close());

  it('loses no acknowledged write, sends none twice, and keeps serving', { timeout: 60_000 }, async () => {
    const random = rng(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const maybeFault = (route: RouteName) => {
      if (random() < FAULT_RATE) h.sandbox.inject(route, pick(FAULTS));
    };
    const started = Date.now();
    const inTime = () => Date.now() - started < TIME_CAP_MS;
    const writes: Write[][] = routeIds.map(() => []);
    const unexpected: string[] = [];
    let nextBackend = ROUTES;
    let reads = 0;

    /** One writer per route: its writes are sequential, so "the last acknowledged" is well defined. */
    async function writer(r: number) {
      const routeId = routeIds[r] ?? '';
      let sent = 0;
      for (let tries = 0; sent < WRITES_PER_ROUTE && tries < TRIES_PER_ROUTE && inTime(); tries += 1) {
        const remove = random() < 1 / 6;
        const backend = remove ? null : (backends[nextBackend++] ?? '');
        maybeFault(remove ? 'deleteBackend' : 'replaceBackend');
        const { body } = await h.gql(remove ? DELETE : REPLACE, {
          input: remove ? { edgeId: edge, routeId } : { edgeId: edge, routeId, backendId: backend },
        });
        const result = body.data ? Object.values(body.data)[0] : undefined;
        let outcome: Outcome;
        if (
          (remove &&
            (result as { __typename?: string })?.__typename === 'DeleteHttpsEdgeRouteBackendPayload') ||
          (!remove &&
            (result as { backendModule?: { backend?: { id: string } } })?.backendModule?.backend?.id ===
              backend)
        ) {
          outcome = 'acknowledged';
        } else {
          const error = body.errors?.[0];
          if (!error || !KNOWN_CODES.has(String(error.extensions?.code)))
            unexpected.push(JSON.stringify(body));
          outcome = error && NOT_SENT.has(error.message) ? 'never-sent' : 'failed-after-send';
        }
        writes[r]?.push({ backend, outcome });
        if (outcome === 'never-sent') await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS));
        else sent += 1;
      }
    }

    async function reader() {
      for (let i = 0; i < READS_PER_READER && inTime(); i += 1) {
        maybeFault(pick(['getBackend', 'listTunnels'] as const));
        const { status, body } = await h.gql(READ, { edgeId: edge, routeId: pick(routeIds) });
        reads += 1;
        if (status !== 200 || (body.errors ?? []).some((e) => !KNOWN_CODES.has(String(e.extensions?.code)))) {
          unexpected.push(JSON.stringify(body));
        }
      }
    }

    await Promise.all([...routeIds.map((_, r) => writer(r)), ...Array.from({ length: READERS }, reader)]);
    h.sandbox.clearFaults();

    const all = writes.flat();
    const count = (o: Outcome) => all.filter((w) => w.outcome === o).length;
    // The run did what it says: many operations, faults of every sort, and both outcomes.
    expect(all.length + reads).toBeGreaterThan(200);
    expect(count('acknowledged')).toBeGreaterThan(30);
    expect(count('failed-after-send')).toBeGreaterThan(5);
    expect(unexpected).toEqual([]);

    // No write sent twice: one upstream PUT/DELETE per write that left the gateway, never a retry.
    const sentWrites = count('acknowledged') + count('failed-after-send');
    expect(h.sandbox.calls('replaceBackend') + h.sandbox.calls('deleteBackend')).toBe(sentWrites);
    expect(h.of('retry').filter((r) => r.method !== 'GET')).toEqual([]);

    // No write lost: each route holds its last acknowledged write, unless a later write that
    // failed after sending may have been applied (the upstream acted, the answer was lost).
    const state = h.sandbox.account(KEY).edges?.[0]?.routes ?? [];
    routeIds.forEach((routeId, r) => {
      const history = writes[r] ?? [];
      const lastAck = history.map((w) => w.outcome).lastIndexOf('acknowledged');
      const allowed = new Set<string | null>(
        lastAck === -1 ? [backends[r] ?? ''] : [history[lastAck]?.backend ?? null],
      );
      for (const w of history.slice(lastAck + 1))
        if (w.outcome === 'failed-after-send') allowed.add(w.backend);
      const actual = state.find((s) => s.id === routeId)?.backend?.backendId ?? null;
      expect(allowed.has(actual), `route ${r}: ${actual} not in ${[...allowed].join(', ')}`).toBe(true);
    });

    // The gateway never exceeded its cap on the upstream, and still answers every route correctly.
    expect(h.sandbox.peakConcurrency(KEY)).toBeLessThanOrEqual(MAX_CONCURRENCY);
    // An open circuit lets one probe through after its cool-down: send one, then read every route.
    for (let i = 0; i < 20 && h.gateway.transport.circuit !== 'closed'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 60));
      await h.gql('{ tunnels(first: 1) { nodes { id } } }');
    }
    expect(h.gateway.transport.circuit).toBe('closed');
    for (const routeId of routeIds) {
      const { body } = await h.gql(READ, { edgeId: edge, routeId });
      const expected = state.find((s) => s.id === routeId)?.backend?.backendId;
      expect(body.errors).toBeUndefined();
      expect((body.data?.httpsEdgeRouteBackend as { backend: { id: string } } | null)?.backend.id).toBe(
        expected,
      );
    }
  });
});
