// Admission reserves (issue 36, point 5), in one process: an admitted query or mutation holds its
// predicted calls in the credential's window until it ends, so operations arriving together (a JSON
// batch, concurrent requests, one graphql-ws socket) are judged against each other's predictions:
// those that do not fit are refused up front with RATE_LIMITED, retryAfter and no call. When one
// ends (a @defer answer: when its stream ends), the holds it did not use are dropped: only the
// calls it made stay counted.
// UPSTREAM_RATE_LIMIT_PER_MIN=20: reads may fill 18 calls of the window, room for one operation
// predicted 10 (MAX_UPSTREAM_CALLS_PER_OPERATION's default) and not two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { budgetAfter } from '../support/budget';
import { type GqlResult, type Stack, startStack } from '../support/stack';
import { takeUpstreamCalls } from '../support/upstream-calls';
import { run, wsClient } from '../support/websocket';

/** A credential per test: each starts on an empty window. */
const keys = ['batch', 'concurrent', 'socket', 'release', 'stream'].map((k) => `${k}-key-0123456789`);
const tunnels = makeTunnels(10, { seed: 36 });
const IDS = tunnels.map((t) => t.id);
/** One GET per id: predicted 10 for ten ids, made 10 unless the read cache answers some. */
const TEN = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';

type Answer = GqlResult['body'] & { upstreamCalls?: { predicted: number; made: number } };

/** The answers' shapes: which ran (its calls) and which were refused (code, retryAfter, calls). */
function outcomes(answers: Answer[]) {
  const ran = answers.filter((a) => a.errors === undefined);
  const refused = answers.filter((a) => a.errors !== undefined);
  return { ran, refused };
}

function expectOneRanFourRefused(answers: Answer[]) {
  const { ran, refused } = outcomes(answers);
  expect(ran).toHaveLength(1);
  expect(ran[0]?.data).toEqual({ nodes: IDS.map((id) => ({ id })) });
  expect(ran[0]?.upstreamCalls).toEqual({ predicted: 10, made: 10 });
  expect(refused).toHaveLength(4);
  for (const answer of refused) {
    expect(answer.data).toBeUndefined();
    expect(answer.errors?.map((e) => e.extensions?.code)).toEqual(['RATE_LIMITED']);
    const retryAfter = answer.errors?.[0]?.extensions?.retryAfter;
    expect(Number.isInteger(retryAfter)).toBe(true);
    // The holds were placed a moment ago: they leave the window about a minute from now.
    expect(retryAfter).toBeGreaterThanOrEqual(40);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(answer.upstreamCalls).toEqual({ predicted: 10, made: 0 });
  }
}

describe('admission reserves the predicted calls (UPSTREAM_RATE_LIMIT_PER_MIN=20)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      accounts: Object.fromEntries(keys.map((key) => [key, { tunnels: makeTunnels(10, { seed: 36 }) }])),
      // The read cache on: an operation that finds its reads cached makes fewer calls than predicted.
      env: { UPSTREAM_RATE_LIMIT_PER_MIN: '20', CACHE_TTL_MS: '60000' },
      websocket: true,
    });
  });
  afterAll(() => stack.close());

  const gql = (key: string, query: string, variables?: Record<string, unknown>) =>
    stack.gql(query, variables, { key });
  const answerOf = (r: GqlResult): Answer => ({ ...r.body, upstreamCalls: r.upstreamCalls });

  it('five operations predicted 10 in one JSON batch: one runs, four refused with RATE_LIMITED and 0 calls', async () => {
    const key = keys[0] ?? '';
    const response = await fetch(stack.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(Array.from({ length: 5 }, () => ({ query: TEN, variables: { ids: IDS } }))),
    });
    const batch = (await response.json()) as GqlResult['body'][];
    expect(batch).toHaveLength(5);
    expectOneRanFourRefused(
      batch.map((body) => {
        const { answer, calls } = takeUpstreamCalls(body);
        return { ...answer, upstreamCalls: calls };
      }),
    );
    expect(stack.sandbox.calls(undefined, key)).toBe(10);
    expect(stack.sandbox.calls('getTunnel', key)).toBe(10);
  });

  it('five such operations sent at once as five requests: one runs, four refused with 0 calls', async () => {
    const key = keys[1] ?? '';
    const answers = await Promise.all(Array.from({ length: 5 }, () => gql(key, TEN, { ids: IDS })));
    expectOneRanFourRefused(answers.map(answerOf));
    expect(answers.filter((a) => a.status === 429)).toHaveLength(4);
    expect(stack.sandbox.calls(undefined, key)).toBe(10);
  });

  it('five such operations pipelined over one graphql-ws socket: one runs, four refused with 0 calls', async () => {
    const key = keys[2] ?? '';
    const client = wsClient(stack.wsUrl, { key });
    try {
      const runs = await Promise.all(Array.from({ length: 5 }, () => run(client, TEN, { ids: IDS })));
      expect(runs.map((r) => r.results.length)).toEqual([1, 1, 1, 1, 1]);
      expectOneRanFourRefused(
        runs.map((r) => ({ ...(r.results[0] as Answer), upstreamCalls: r.upstreamCalls[0] })),
      );
      expect(client.acks).toBe(1);
    } finally {
      await client.dispose();
    }
    expect(stack.sandbox.calls(undefined, key)).toBe(10);
  });

  it('drops the holds an operation did not use when it ends: only what it made stays counted', async () => {
    const key = keys[3] ?? '';
    // Five tunnels read (and cached): 5 calls counted.
    const five = await gql(key, TEN, { ids: IDS.slice(0, 5) });
    expect(five.upstreamCalls).toEqual({ predicted: 5, made: 5 });
    // Predicted 10, made 5 (five are cached): 10 calls spent; its own 5 unused holds, dropped as it
    // ends, count in no share (18 - 10 left for reads).
    const ten = await gql(key, TEN, { ids: IDS });
    expect(ten.body.errors).toBeUndefined();
    expect(ten.upstreamCalls).toEqual({ predicted: 10, made: 5 });
    expect(ten.body.extensions).toEqual({ upstreamBudget: budgetAfter(20, { reads: 10 }) });
    // Its 5 unused holds went with it: 10 counted, so 8 more fit (had they stayed: 15 + 8 > 18)...
    const eight = await gql(key, TEN, { ids: IDS.slice(0, 8) });
    expect(eight.body.errors).toBeUndefined();
    expect(eight.upstreamCalls).toEqual({ predicted: 8, made: 0 });
    // ...and, all of its 8 unused too, still 10: 9 do not fit (10 + 9 > 18), refused before any call.
    const nine = await gql(key, TEN, { ids: IDS.slice(0, 9) });
    expect(nine.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(nine.upstreamCalls).toEqual({ predicted: 9, made: 0 });
    expect(stack.sandbox.calls(undefined, key)).toBe(10);
  });

  it('drops them when a @defer answer ends', async () => {
    const key = keys[4] ?? '';
    const warm = await gql(key, TEN, { ids: IDS });
    expect(warm.upstreamCalls).toEqual({ predicted: 10, made: 10 });
    // Predicted 1 at once and 8 deferred, all of them cached: made 0.
    const deferred = `query($ids: [ID!]!) { first: nodes(ids: ["${IDS[0]}"]) { id } ... @defer { rest: nodes(ids: $ids) { id } } }`;
    const response = await fetch(stack.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'multipart/mixed',
        authorization: `Bearer ${key}`,
      },
      body: JSON.stringify({ query: deferred, variables: { ids: IDS.slice(0, 8) } }),
    });
    expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    const text = await response.text();
    expect(text).toContain(
      `"rest":[${IDS.slice(0, 8)
        .map((id) => `{"id":"${id}"}`)
        .join(',')}]`,
    );
    expect(text).not.toContain('"errors"');
    // Its 9 holds went when the stream ended: 10 counted, 8 fit (had they stayed: 19 + 8 > 18).
    const eight = await gql(key, TEN, { ids: IDS.slice(0, 8) });
    expect(eight.body.errors).toBeUndefined();
    expect(eight.upstreamCalls).toEqual({ predicted: 8, made: 0 });
    expect(stack.sandbox.calls(undefined, key)).toBe(10);
  });
});
