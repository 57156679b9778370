// Random subscriptions with joins (references, nested references, reverse-join pages, aliased and
// combined) on an account of 120 agents: whatever each was admitted for, its current set (one
// observation) never makes more calls than it was predicted to, and the stand-in's count of join
// calls is what its log line says. The seed is named on failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels, newId } from '../../src/sandbox';
import { KEY, type Stack } from '../support/stack';
import { metric, sse, startLiveStack, until } from './support';

/** The join pieces of each list's events, each selected under an alias of its own. */
const PIECES = {
  tunnelEvents: [
    'tunnelSession { node { ... on TunnelSession { id } } }',
    'endpoint { node { ... on Endpoint { id } } }',
    'endpoint { node { ... on Endpoint { domain { node { id } } tunnelSession { node { id } } } } }',
    'tunnelSession { node { ... on TunnelSession { endpoints(first: 2) { nodes { id } } } } }',
    'backends { node { id } }',
  ],
  endpointEvents: [
    'tunnelSession { node { ... on TunnelSession { id } } }',
    'tunnel { node { ... on Tunnel { id } } }',
    'domain { node { id } }',
    'principal { node { id } }',
  ],
  tunnelSessionEvents: [
    'credential { node { id } }',
    'endpoints(first: 3) { nodes { id tunnelSession { node { id } } } }',
  ],
} as const;

const ITEM = { tunnelEvents: 'tunnel', endpointEvents: 'endpoint', tunnelSessionEvents: 'tunnelSession' };

const SUBSCRIPTIONS = 12;
const AGENTS = 120;

/** A small seeded generator (mulberry32): the same seed, the same subscriptions. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function subscription(next: () => number): string {
  const lists = Object.keys(PIECES) as (keyof typeof PIECES)[];
  const list = lists[Math.floor(next() * lists.length)] ?? 'tunnelEvents';
  const pieces = PIECES[list].filter(() => next() < 0.5);
  if (pieces.length === 0) pieces.push(PIECES[list][0]);
  const joins = pieces.map((piece, i) => `j${i}: ${piece}`).join(' ');
  return `subscription { ${list}(includeCurrent: true) { kind observedAt ${ITEM[list]} { id ${joins} } } }`;
}

/** Every route a join may call. */
const JOIN_ROUTES = [
  'listTunnelSessions',
  'listEndpoints',
  'listReservedDomains',
  'getTunnel',
  'listTunnels',
  'listCredentials',
  'getCredential',
] as const;

describe('random subscriptions with joins: made <= predicted for an observation', () => {
  const seed = Number(process.env.PROPERTY_SEED ?? Date.now() % 100_000);
  let stack: Stack;
  beforeAll(async () => {
    const tunnels = makeTunnels(AGENTS, { seed: 96, kind: 'agent' }).map((tunnel) => ({
      ...tunnel,
      tunnel_session: { ...tunnel.tunnel_session, id: newId('ts', new Date(tunnel.started_at)) },
    }));
    // One walk per list: every later call of a list is a join.
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels } },
      env: { LIVE_POLL_INTERVAL_MS: '600000' },
    });
  });
  afterAll(() => stack.close());

  it(`${SUBSCRIPTIONS} subscriptions (seed ${seed})`, async () => {
    const next = random(seed);
    for (let i = 0; i < SUBSCRIPTIONS; i += 1) {
      const query = subscription(next);
      const before = JOIN_ROUTES.reduce((n, route) => n + stack.sandbox.calls(route), 0);
      const joinsBefore = await metric(stack.gateway, 'gateway_live_join_calls_total');
      const s = await sse(stack.url, KEY, {}, query);
      await until(() => s.ended !== undefined || s.results.length >= AGENTS, `seed ${seed}: ${query}`);
      s.close();
      await until(
        () => stack.lines().filter((l) => l.operationType === 'subscription').length === i + 1,
        `seed ${seed}: the line of ${query}`,
      );
      const line = stack.lines().filter((l) => l.operationType === 'subscription')[i];
      // No line: predicted -1, and the check below fails.
      const { predicted, made } = (line?.upstream ?? { predicted: -1, made: 0 }) as {
        predicted: number;
        made: number;
      };
      expect(made, `seed ${seed}: ${query}`).toBeLessThanOrEqual(predicted);
      // The line counts the join calls the metric does, and the stand-in saw them (with the walks').
      expect(await metric(stack.gateway, 'gateway_live_join_calls_total'), `seed ${seed}: ${query}`).toBe(
        joinsBefore + made,
      );
      const after = JOIN_ROUTES.reduce((n, route) => n + stack.sandbox.calls(route), 0);
      expect(after - before, `seed ${seed}: ${query}`).toBeGreaterThanOrEqual(made);
    }
  });
});
