// A 429 with Retry-After pauses the credential: nothing more is sent for it until then, other
// credentials are served, and calls that fit wait the pause out.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPLACE, sleep } from '../support/fixtures';
import { KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';
import {
  backendB,
  edge,
  failedTunnel,
  MESSAGES,
  near,
  OP_ID,
  route,
  seed,
  TUNNEL,
  t0,
  t1,
} from './fault-fixtures';

describe('a 429 with Retry-After pauses the credential', () => {
  let h: Stack;
  beforeEach(async () => {
    // A harness per test: a pause lasts as long as the upstream asked.
    h = await startStack({
      accounts: { [KEY]: seed(), [OTHER_KEY]: seed() },
      env: { BREAKER_FAILURE_THRESHOLD: '0', UPSTREAM_MAX_CONCURRENCY: '1' },
    });
  });
  afterEach(() => h.close());

  it('a Retry-After longer than the time left answers RATE_LIMITED at once, with it', async () => {
    // 60 s does not fit in the 20 s operation deadline: waiting would only end in a timeout.
    h.sandbox.inject('getTunnel', { kind: 'rateLimit', retryAfter: 60 });
    const { body } = await h.gql(TUNNEL, { id: t0.id });
    expect(body).toEqual(
      failedTunnel(MESSAGES.rateLimited, {
        code: 'RATE_LIMITED',
        retryAfter: 60,
        upstream: { status: 429, errorCode: 'ERR_NGROK_226', operationId: OP_ID },
      }),
    );
    expect(h.sandbox.calls('getTunnel')).toBe(1);

    // Until then nothing more is sent for that credential, reads or writes; others are served.
    const read = await h.gql(TUNNEL, { id: t1.id });
    expect(read.body).toEqual(
      failedTunnel(MESSAGES.paused, { code: 'RATE_LIMITED', retryAfter: expect.toSatisfy(near(60)) }),
    );
    const write = await h.gql(REPLACE, { input: { edgeId: edge, routeId: route, backendId: backendB } });
    expect(write.body).toMatchObject({
      data: null,
      errors: [{ message: MESSAGES.paused, extensions: { code: 'RATE_LIMITED' } }],
    });
    expect(h.sandbox.calls()).toBe(1);
    const other = await h.gql(TUNNEL, { id: t1.id }, { key: OTHER_KEY });
    expect(other.body).toEqual({ data: { tunnel: { id: t1.id } } });
    expect(h.sandbox.calls()).toBe(2);
    expect(h.of('rateLimited')).toEqual([
      { route: 'getTunnel', source: 'upstream', retryAfter: 60 },
      { route: 'getTunnel', source: 'gateway', retryAfter: expect.toSatisfy(near(60)) },
      { route: 'replaceBackend', source: 'gateway', retryAfter: expect.toSatisfy(near(60)) },
    ]);
  });

  it('a short Retry-After: the other calls of the credential wait it out, then go, once each', async () => {
    h.sandbox.inject('getTunnel', { kind: 'rateLimit', retryAfter: 1 });
    const first = h.gql(TUNNEL, { id: t0.id });
    while (h.sandbox.calls('getTunnel') === 0) await sleep(5);
    const second = h.gql(TUNNEL, { id: t1.id });
    await sleep(500);
    // Half-way through the pause: only the refused call has reached the upstream.
    expect(h.sandbox.calls('getTunnel')).toBe(1);
    expect((await first).body).toEqual({ data: { tunnel: { id: t0.id } } });
    expect((await second).body).toEqual({ data: { tunnel: { id: t1.id } } });
    // The refused call, its retry after Retry-After, and the call that waited: no second 429.
    expect(h.sandbox.calls('getTunnel')).toBe(3);
    expect(h.of('rateLimited')).toEqual([{ route: 'getTunnel', source: 'upstream', retryAfter: 1 }]);
  });
  it('a call that was waiting for a slot when the 429 came waits the pause out too', async () => {
    // One slot per credential: the second call queues behind the first, which is refused after 100 ms.
    h.sandbox.setLatency('getTunnel', 100);
    h.sandbox.inject('getTunnel', { kind: 'rateLimit', retryAfter: 1 });
    const both = Promise.all([h.gql(TUNNEL, { id: t0.id }), h.gql(TUNNEL, { id: t1.id })]);
    while (h.sandbox.calls('getTunnel') === 0) await sleep(5);
    await sleep(400);
    expect(h.sandbox.calls('getTunnel')).toBe(1);
    const [first, second] = await both;
    expect(first.body).toEqual({ data: { tunnel: { id: t0.id } } });
    expect(second.body).toEqual({ data: { tunnel: { id: t1.id } } });
    expect(h.sandbox.calls('getTunnel')).toBe(3);
  });
});
