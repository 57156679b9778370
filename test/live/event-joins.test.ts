// Each live event's joins are resolved afresh (endpoint → tunnel → node): an event after the
// tunnel went away shows it gone, not as the first event saw it; an error in one event's join is
// that event's alone. And they are resolved once for every subscriber of the account: three
// subscribers of one ONLINE cost one GET of its tunnel.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels, newId } from '../../src/sandbox';
import { walked } from './endpoint-support';
import { command } from './session-support';
import { ENDPOINT_EVENTS, KEY, type Stack, type Subscriber, sse, startLiveStack, until } from './support';

const JOINED = ENDPOINT_EVENTS('id tunnel { id node { ... on Tunnel { id region } } }');

interface Joined {
  kind: string;
  endpoint: { tunnel: { id: string; node: { id: string; region: string } | null } | null };
}

describe('the joins of live events', () => {
  let stack: Stack;
  const open: Subscriber[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await stack.close();
  });

  /** Three endpoint subscribers selecting the tunnel of each endpoint, once the baseline walk is done. */
  async function subscribers(): Promise<Subscriber[]> {
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: makeTunnels(1, { seed: 81, kind: 'agent' }) } },
      env: { UPSTREAM_RETRIES: '0', BREAKER_FAILURE_THRESHOLD: '0' },
    });
    const three = [await sse(stack.url, KEY, {}, JOINED), await sse(stack.url, KEY, {}, JOINED)];
    three.push(await sse(stack.url, KEY, {}, JOINED));
    open.push(...three);
    await until(() => stack.gateway.live.count(KEY) === 3, 'three subscriptions');
    await walked(stack, 'endpoints', 0, 1);
    return three;
  }

  const shown = (s: Subscriber, i: number) => {
    const result = s.results[i];
    return { event: result?.data?.endpointEvents as Joined | undefined, errors: result?.errors };
  };

  it("a later event sees the tunnel as it is then; one event's joins cost one call for every subscriber", async () => {
    const three = await subscribers();
    const added = stack.sandbox.addTunnel(KEY);
    for (const s of three) await s.received(1);
    for (const s of three) {
      expect(shown(s, 0)).toEqual({
        event: expect.objectContaining({
          kind: 'ONLINE',
          endpoint: expect.objectContaining({
            tunnel: { id: added.id, node: { id: added.id, region: added.region } },
          }),
        }),
        errors: undefined,
      });
    }
    // One GET of the tunnel for the three subscribers.
    expect(stack.sandbox.calls('getTunnel')).toBe(1);

    stack.sandbox.removeTunnel(KEY, added.id);
    for (const s of three) await s.received(2);
    for (const s of three) {
      const { event, errors } = shown(s, 1);
      expect(errors).toBeUndefined();
      expect(event?.kind).toBe('OFFLINE');
      // Looked up again for this event: the tunnel is gone now.
      expect(event?.endpoint.tunnel).toEqual({ id: added.id, node: null });
    }
    expect(stack.sandbox.calls('getTunnel')).toBe(2);
  });

  it("a failed join is that event's error only: the next event's join is asked again", async () => {
    const three = await subscribers();
    stack.sandbox.inject('getTunnel', { kind: 'status', status: 500 });
    const added = stack.sandbox.addTunnel(KEY);
    for (const s of three) await s.received(1);
    for (const s of three) {
      const { event, errors } = shown(s, 0);
      expect(event?.endpoint.tunnel?.node).toBeNull();
      expect(errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    }
    expect(stack.sandbox.calls('getTunnel')).toBe(1);

    stack.sandbox.removeTunnel(KEY, added.id);
    for (const s of three) await s.received(2);
    for (const s of three) {
      const { event, errors } = shown(s, 1);
      expect(errors).toBeUndefined();
      expect(event?.endpoint.tunnel).toEqual({ id: added.id, node: null });
    }
    expect(stack.sandbox.calls('getTunnel')).toBe(2);
  });
  it('an agent joined to an endpoint event is looked up for that event: gone once stopped', async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: makeTunnels(1, { seed: 82, kind: 'agent' }) } },
    });
    const query = ENDPOINT_EVENTS('id tunnelSession { id node { ... on TunnelSession { id } } }');
    const s = await sse(stack.url, KEY, {}, query);
    open.push(s);
    await walked(stack, 'endpoints', 0, 1);
    const added = stack.sandbox.addTunnel(KEY);
    const session = added.tunnel_session.id;
    await s.received(1);
    await command(stack.url, session, 'STOP');
    await s.received(2);
    const agentOf = (i: number) =>
      (s.results[i]?.data?.endpointEvents?.endpoint as { tunnelSession: unknown } | undefined)?.tunnelSession;
    expect(s.seen()).toEqual([`ONLINE:ep_${added.id.slice(3)}`, `OFFLINE:ep_${added.id.slice(3)}`]);
    expect(agentOf(0)).toEqual({ id: session, node: { id: session } });
    expect(agentOf(1)).toEqual({ id: session, node: null });
  });

  it('the joins of one observation are shared by its events and subscribers: 6 endpoints on one wildcard domain, one call per walk read', async () => {
    const at = '2025-06-01T00:00:00Z';
    const domains = [{ id: newId('rd'), created_at: at, domain: '*.apps.example.com' }];
    const endpoints = Array.from({ length: 6 }, (_, i) => ({
      id: newId('ep'),
      url: `https://e${i}.apps.example.com`,
      created_at: at,
      updated_at: at,
      traffic_policy: '{}',
      bindings: ['public'],
    }));
    stack = await startLiveStack({ accounts: { [KEY]: { reservedDomains: domains, endpoints } } });
    const query = ENDPOINT_EVENTS('id domain { node { ... on ReservedDomain { domain } } }');
    const three = await Promise.all(
      [1, 2, 3].map(() => sse(stack.url, KEY, { includeCurrent: true }, query)),
    );
    open.push(...three);
    for (const s of three) await s.received(6);
    const shownDomains = (s: Subscriber) =>
      s.results.map(
        (r) =>
          (r.data?.endpointEvents?.endpoint as { domain?: { node?: { domain: string } } } | undefined)?.domain
            ?.node?.domain,
      );
    const observations = new Set<string>();
    for (const s of three) {
      expect(s.results.every((r) => r.errors === undefined)).toBe(true);
      expect(shownDomains(s)).toEqual(Array(6).fill('*.apps.example.com'));
      // A subscriber's current list is one walk's: its six events share one observation.
      const own = new Set(s.results.map((r) => r.data?.endpointEvents?.observedAt ?? ''));
      expect(own.size).toBe(1);
      for (const at of own) observations.add(at);
    }
    // One call per observation for its six events, whichever of the three subscribers read them.
    expect(stack.sandbox.calls('listReservedDomains')).toBe(observations.size);
    expect(observations.size).toBeLessThanOrEqual(3);
  });
});
