// Only complete walks count: a failed or cut page discards the walk (no OFFLINE for what it did not
// see), failures back off without closing streams, and a 429 pauses polling for its Retry-After.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { EVENTS, KEY, metric, type Stack, type Subscriber, sse, startLiveStack, until } from './support';

describe('tunnelEvents under upstream faults', () => {
  let stack: Stack;
  const open: Subscriber[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await stack.close();
  });

  it('failed and partial walks produce no OFFLINE; the stream stays open and the next complete walk counts', async () => {
    const tunnels = makeTunnels(150, { seed: 41 });
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels } },
      env: { UPSTREAM_RETRIES: '0', LIVE_POLL_INTERVAL_MS: '100', BREAKER_FAILURE_THRESHOLD: '0' },
    });
    const s = await sse(stack.url, KEY, { includeCurrent: true }, EVENTS('id'));
    open.push(s);
    await s.received(150);
    const before = stack.sandbox.calls('listTunnels');
    // Four walks, each with a good first page and a second page that fails or is cut short.
    stack.sandbox.inject(
      'listTunnels',
      { kind: 'pass' },
      { kind: 'status', status: 500 },
      { kind: 'pass' },
      { kind: 'missingField' },
      { kind: 'pass' },
      { kind: 'truncatedJson' },
      { kind: 'pass' },
      { kind: 'drop' },
    );
    await until(() => stack.sandbox.calls('listTunnels') >= before + 8, 'the faulted walks');
    await until(
      async () => (await metric(stack.gateway, 'gateway_live_polls_total', { outcome: 'failed' })) >= 4,
      'four failed walks',
    );
    expect(s.results).toHaveLength(150);
    expect(s.ended).toBeUndefined();

    const gone = tunnels[130];
    if (!gone) throw new Error('fixture');
    stack.sandbox.removeTunnel(KEY, gone.id);
    await s.received(151, 30_000);
    expect(s.seen().slice(150)).toEqual([`OFFLINE:${gone.id}`]);
    expect(s.ended).toBeUndefined();
  });

  it('a 429 pauses polling for its Retry-After; the stream stays open and events resume', async () => {
    const tunnels = makeTunnels(3, { seed: 42 });
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels } }, env: { LIVE_POLL_INTERVAL_MS: '100' } });
    const s = await sse(stack.url, KEY, {}, EVENTS('id'));
    open.push(s);
    await until(() => stack.sandbox.calls('listTunnels') >= 2, 'polling');
    stack.sandbox.inject('listTunnels', { kind: 'rateLimit', retryAfter: 2 });
    // The call that got the 429 is the next one; time how long until the one after it.
    const limited = stack.sandbox.calls('listTunnels') + 1;
    await until(() => stack.sandbox.calls('listTunnels') >= limited, 'the 429');
    const at = performance.now();
    await until(() => stack.sandbox.calls('listTunnels') > limited, 'polling to resume');
    expect(performance.now() - at).toBeGreaterThanOrEqual(1_800);
    expect(s.ended).toBeUndefined();
    const added = stack.sandbox.addTunnel(KEY);
    await s.received(1);
    expect(s.seen()).toEqual([`ONLINE:${added.id}`]);
  });
});
