// What the fault tests share: an account with tunnels and a route with its backend, the messages
// and shape of a failed answer, and the stack they run on, reset between tests.
import { expect } from 'vitest';
import { type AccountSeed, makeTunnels, newId } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';

export const tunnels = makeTunnels(4, { seed: 41 });
export const [t0, t1] = tunnels as [(typeof tunnels)[0], (typeof tunnels)[0]];
export const edge = newId('edghts');
export const route = newId('edghtsrt');
export const backendA = newId('bkdtg');
export const backendB = newId('bkdtg');
export const seed = (): AccountSeed => ({
  tunnels,
  edges: [{ id: edge, routes: [{ id: route, backend: { backendId: backendA, enabled: true } }] }],
  backends: [backendA, backendB],
});

export const TUNNEL = 'query($id: ID!) { tunnel(id: $id) { id } }';

export const OP_ID = expect.stringMatching(/^op_[A-Za-z0-9]+$/);
export const MESSAGES = {
  unavailable: 'The ngrok API is unavailable.',
  timeout: 'The ngrok API did not answer in time.',
  badResponse: 'The ngrok API sent a response the gateway could not read.',
  rateLimited: 'The ngrok API rate limit was reached; retry later.',
  outcomeUnknown:
    'The ngrok API did not confirm the change, which may have been applied; read it back before retrying.',
  paused:
    'The ngrok API rate-limited this credential; the gateway sends nothing for it until Retry-After has passed.',
};

/** A retryAfter in whole seconds a moment after a pause of `seconds` began. */
export const near = (seconds: number) => (value: unknown) =>
  typeof value === 'number' && value <= seconds && value >= seconds - 1;

/** The answer to TUNNEL when the call failed with `extensions`. */
export const failedTunnel = (message: string, extensions: Record<string, unknown>) => ({
  data: { tunnel: null },
  errors: [{ message, locations: [{ line: 1, column: 19 }], path: ['tunnel'], extensions }],
});

export const backendOf = (h: Stack) => h.sandbox.account(KEY).edges?.[0]?.routes[0]?.backend?.backendId;

/** The stack most fault tests share: short timeouts and retry steps, no breaker; edges writable (faulted writes). */
export const startFaultStack = (): Promise<Stack> =>
  startStack({
    sandbox: { edgesWritable: true },
    accounts: { [KEY]: seed() },
    // The breaker has its own tests; here it would open after a few faults in a row.
    env: { UPSTREAM_TIMEOUT_MS: '300', BREAKER_FAILURE_THRESHOLD: '0', UPSTREAM_RETRY_BASE_MS: '10' },
  });

/** Before each test: no faults, the seeded account, no calls or events counted. */
export function freshFaults(h: Stack): void {
  h.sandbox.clearFaults();
  h.sandbox.seed(KEY, seed());
  h.sandbox.resetCalls();
  h.events.length = 0;
}

/** The gateway still answers a fresh read correctly after the fault. */
export async function stillServes(h: Stack): Promise<void> {
  const { body } = await h.gql(TUNNEL, { id: t1.id });
  expect(body).toEqual({ data: { tunnel: { id: t1.id } } });
}
