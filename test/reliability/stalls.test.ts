// Timeouts measure the upstream, not the gateway's own pauses: a stalled event loop (a long garbage
// collection, a starved CPU) does not turn an answer that arrived meanwhile into UPSTREAM_TIMEOUT.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transportOptions } from '../../src/app';
import { defaultConfig } from '../../src/config';
import { type AccountSeed, makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { upstreamKey } from '../../src/upstream/call/upstream-key';
import { attemptTimeout } from '../../src/upstream/exchange/timeout';
import { UpstreamTransport } from '../../src/upstream/transport';
import { sleep } from '../support/fixtures';
import { KEY } from '../support/stack';

/** Blocks the event loop, as a long garbage collection would. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

/** Lets due timers run: a zero timeout fires after every timer that was due before it. */
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('attemptTimeout', () => {
  /** A timeout of `ms` and what it fired with, if it did. */
  const watched = (ms: number) => {
    const fired: { reason?: Error } = {};
    const timeout = attemptTimeout(ms, (reason) => {
      fired.reason = reason;
    });
    return { timeout, fired };
  };

  it('aborts with a TimeoutError when the time is up', async () => {
    const { fired } = watched(30);
    expect(fired.reason).toBeUndefined();
    await sleep(200);
    expect(fired.reason).toBeDefined();
    expect(fired.reason?.name).toBe('TimeoutError');
  });

  it('grants the time of a stall once more, then aborts even if stalled again', async () => {
    const { fired } = watched(40);
    stall(150);
    await turn();
    // The timer fired about 110 ms late: the lost time (at most the timeout again) is granted.
    expect(fired.reason).toBeUndefined();
    stall(100);
    await turn();
    expect(fired.reason).toBeDefined();
  });

  it('clear() stops it', async () => {
    const { timeout, fired } = watched(20);
    timeout.clear();
    await sleep(100);
    expect(fired.reason).toBeUndefined();
  });
});

describe('an upstream call across a stall of the gateway', () => {
  const tunnels = makeTunnels(1, { seed: 5 });
  const accounts: Record<string, AccountSeed> = { [KEY]: { tunnels } };
  let sandbox: Sandbox;
  let transport: UpstreamTransport;
  const getTunnel = {
    route: 'getTunnel',
    method: 'GET',
    segments: ['tunnels', tunnels[0]?.id ?? ''],
  } as const;

  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: false, accounts });
    transport = new UpstreamTransport({
      ...transportOptions(defaultConfig(), sandbox.url),
      timeoutMs: 60,
      retries: 0,
    });
  });
  afterAll(async () => {
    await transport.destroy();
    await sandbox.close();
  });

  it('reads the answer instead of timing out when the gateway stalled past the timeout', async () => {
    // The stand-in answers after 20 ms; the gateway stalls from 10 ms to 260 ms, past its 60 ms timeout.
    sandbox.setLatency('getTunnel', 20);
    const pending = transport.send(upstreamKey(KEY), getTunnel);
    setTimeout(() => stall(250), 10);
    const response = await pending;
    expect(response.status).toBe(200);
    expect((response.json as { id: string }).id).toBe(tunnels[0]?.id);
    expect(sandbox.calls('getTunnel')).toBe(1);
  });
});
