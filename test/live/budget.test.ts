// The poller's cost: within LIVE_POLL_BUDGET_PER_MIN per rolling minute however large the account,
// and nothing at all once the last subscriber has left for LIVE_IDLE_MS.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { keyDigest } from '../../src/upstream';
import { EVENTS, KEY, metric, type Stack, type Subscriber, sse, startLiveStack, until } from './support';

/** Waits while the poller could have made several more walks, then reads the call count again. */
async function settled(stack: Stack, expected: number): Promise<number> {
  await until(() => stack.sandbox.calls('listTunnels') >= expected, `${expected} calls`);
  // Ten intervals: enough for more walks if the budget did not hold them back.
  await new Promise((resolve) => setTimeout(resolve, 10 * 100));
  return stack.sandbox.calls('listTunnels');
}

describe('the poll budget', () => {
  let stack: Stack;
  const open: Subscriber[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await stack.close();
  });

  async function budgeted(env: Record<string, string>) {
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: makeTunnels(250, { seed: 21 }) } },
      env: { LIVE_POLL_INTERVAL_MS: '100', ...env },
    });
    open.push(await sse(stack.url, KEY, {}, EVENTS('id')));
  }

  it('a large account (3 pages a walk): the interval stretches to 60 s × 3 / budget, far beyond LIVE_POLL_INTERVAL_MS', async () => {
    await budgeted({ LIVE_POLL_BUDGET_PER_MIN: '10', UPSTREAM_RETRIES: '0' });
    // One walk, then 18 s until the next: ten intervals later there is still only one.
    expect(await settled(stack, 3)).toBe(3);
    expect(await metric(stack.gateway, 'gateway_live_polls_total', { outcome: 'complete' })).toBe(1);
  });

  it('a walk that does not fit the budget waits mid-walk: calls in the window never exceed the budget', async () => {
    await budgeted({ LIVE_POLL_BUDGET_PER_MIN: '2', UPSTREAM_RETRIES: '0' });
    expect(await settled(stack, 2)).toBe(2);
    expect(await metric(stack.gateway, 'gateway_live_polls_total')).toBe(0);
  });

  it('room is kept for the retries a page may cost (UPSTREAM_RETRIES=2)', async () => {
    // Budget 4: a page is sent only when 1 + 2 calls still fit, so the third page waits.
    await budgeted({ LIVE_POLL_BUDGET_PER_MIN: '4', UPSTREAM_RETRIES: '2' });
    expect(await settled(stack, 2)).toBe(2);
  });
});

describe('the poller lifecycle', () => {
  let stack: Stack;
  afterEach(() => stack.close());

  it('starts with the first subscriber, stops LIVE_IDLE_MS after the last leaves, and logs both without the credential', async () => {
    stack = await startLiveStack({ accounts: { [KEY]: { tunnels: makeTunnels(3) } } });
    expect(stack.gateway.live.pollers()).toBe(0);
    expect(stack.sandbox.calls('listTunnels')).toBe(0);
    const a = await sse(stack.url, KEY, {}, EVENTS('id'));
    const b = await sse(stack.url, KEY, {}, EVENTS('id'));
    await until(() => stack.sandbox.calls('listTunnels') >= 2, 'polls');
    expect(stack.gateway.live.pollers()).toBe(1);
    a.close();
    // One subscriber left: polling goes on.
    const before = stack.sandbox.calls('listTunnels');
    await until(() => stack.sandbox.calls('listTunnels') >= before + 3, 'more polls');
    b.close();
    await until(() => stack.gateway.live.pollers() === 0, 'the poller to stop');
    await until(async () => (await metric(stack.gateway, 'gateway_live_pollers')) === 0, 'the gauge');
    expect(await metric(stack.gateway, 'gateway_live_subscriptions')).toBe(0);
    const after = stack.sandbox.calls('listTunnels');
    await new Promise((resolve) => setTimeout(resolve, 10 * 200));
    expect(stack.sandbox.calls('listTunnels')).toBe(after);

    const log = stack.text();
    const digest = keyDigest(KEY);
    expect(log).toContain('"msg":"live poller started"');
    expect(log).toContain('"msg":"live poller stopped"');
    expect(log).toContain(`"credential":"${digest.slice(0, 8)}"`);
    expect(log).not.toContain(KEY);
    expect(log).not.toContain(digest);
  });
});
