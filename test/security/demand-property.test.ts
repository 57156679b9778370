// The demand planner's promise, tested on random operations: an operation never makes more upstream
// calls than it was predicted to (made <= predicted), whatever its aliases, fragments, variables,
// directives, list arguments and joins; and no answer is a 5xx. Each operation runs alone, on a
// credential of its own (a fresh stand-in account), so no cache or in-flight call of another helps
// it. The seed is random (PROPERTY_SEED replays one) and named in every failure; the test reports
// how tight the predictions were (printed by support/annotations-reporter.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fanOutDocuments } from '../../src/bench/scenarios/fan-out-documents';
import { demoData } from '../../src/sandbox';
import { schema } from '../../src/schema';
import { postGraphQL, type Stack, startStack } from '../support/stack';
import { postStreamed } from '../support/streamed-answers';
import { illTypedOperations } from './ill-typed-variables';
import { type Generated, generateOperation, type IdPools, seededRandom } from './operation-generator';

/** Operations whose variables graphql-js refuses (subscriptions aside: they are streams). */
const ILL_TYPED = illTypedOperations(schema).filter((o) => o.operation !== 'subscription');

type Drawn = Generated & { readonly illTyped?: boolean };

/** Mostly a generated operation; now and then one with ill-typed variables, or a fan-out document. */
function draw(random: () => number, ids: IdPools): Drawn {
  const which = random();
  if (which < 0.05) {
    const { query, variables } = ILL_TYPED[
      Math.floor(random() * ILL_TYPED.length)
    ] as (typeof ILL_TYPED)[number];
    return { query, variables, illTyped: true };
  }
  if (which < 0.1) {
    const nodeIds = [ids.tunnels[0], ids.endpoints[0], ids.sessions[0]].filter((id) => id !== undefined);
    const [document] = fanOutDocuments(random, { nodeIds, missingEndpointId: `ep_${'Q'.repeat(27)}` }, 1);
    if (document) return { query: document.query, variables: document.variables };
  }
  return generateOperation(schema, random, ids);
}

const OPERATIONS = 2_000;
const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe(`the planner's upper bound on ${OPERATIONS} random operations (seed ${SEED})`, () => {
  let stack: Stack;
  const account = demoData({ tunnels: 130 });
  let ids: IdPools;
  beforeAll(async () => {
    // No ceiling in the way: every operation the planner admits by default or not runs, and is compared.
    stack = await startStack({
      accounts: { 'key-0': account },
      env: { MAX_UPSTREAM_CALLS_PER_OPERATION: '10000', MAX_RESPONSE_OBJECTS: '1000000', MAX_ALIASES: '50' },
    });
    const listed = stack.sandbox.account('key-0');
    ids = {
      tunnels: (listed.tunnels ?? []).map((t) => t.id),
      sessions: [...new Set((listed.tunnels ?? []).map((t) => t.tunnel_session.id))],
      domains: (listed.reservedDomains ?? []).map((d) => d.id),
      addresses: (listed.reservedAddrs ?? []).map((a) => a.id),
      endpoints: stack.sandbox.listEndpoints('key-0').map((e) => e.id),
      routes: (listed.edges ?? []).flatMap((e) => e.routes.map((r) => ({ edgeId: e.id, routeId: r.id }))),
    };
  });
  afterAll(() => stack.close());

  it('made <= predicted for every operation, no 5xx', async ({ annotate }) => {
    // Every kind of id the schema serves is there to ask for.
    for (const pool of Object.values(ids)) expect(pool.length).toBeGreaterThan(0);
    const random = seededRandom(SEED);
    let ran = 0;
    let slack = 0;
    let largest = 0;
    let calls = 0;
    const kinds = { illTyped: 0, deferred: 0 };
    for (let i = 0; i < OPERATIONS; i += 1) {
      const { query, variables, deferred, illTyped } = draw(random, ids);
      const key = `key-${i + 1}`;
      stack.sandbox.seed(key, account);
      const where = `seed ${SEED}, operation ${i}: ${query} ${JSON.stringify(variables)}`;
      // Both throw when made > predicted on any answer or payload (support/upstream-calls.ts).
      const transport = random() < 0.5 ? 'multipart' : 'sse';
      const answer = await (deferred
        ? postStreamed(stack.url, { query, variables }, { transport, key })
        : postGraphQL(stack.url, query, variables, { key })
      ).catch((error: Error) => {
        throw new Error(`${error.message}; ${where}`);
      });
      expect(answer.status, where).toBeLessThan(500);
      const made = stack.sandbox.calls(undefined, key);
      if (illTyped) {
        kinds.illTyped += 1;
        expect(answer.status, where).toBe(400);
        expect(answer.upstreamCalls, where).toEqual({ predicted: 0, made: 0 });
        expect(made, where).toBe(0);
        continue;
      }
      if (deferred) kinds.deferred += 1;
      if (answer.upstreamCalls === undefined) {
        // Refused before planning (parse or validation): nothing ran.
        expect(made, where).toBe(0);
        continue;
      }
      const { predicted, made: reported } = answer.upstreamCalls;
      // What the stand-in saw is what the gateway reports (no retries here), and within the prediction.
      expect(made, where).toBe(reported);
      expect(made, where).toBeLessThanOrEqual(predicted);
      ran += 1;
      calls += made;
      slack += predicted - made;
      largest = Math.max(largest, predicted - made);
    }
    // Most operations ran (the generator is not only producing refusals), and they called the upstream.
    expect(ran).toBeGreaterThan(OPERATIONS / 2);
    expect(calls).toBeGreaterThan(OPERATIONS / 2);
    await annotate(
      `seed ${SEED}: ${ran} of ${OPERATIONS} operations ran (${kinds.deferred} deferred), ${kinds.illTyped} ill-typed refused, ${calls} upstream calls; predicted - made: mean ${(slack / ran).toFixed(2)}, largest ${largest}`,
    );
  }, 240_000);
});
