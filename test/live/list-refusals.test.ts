// A list the upstream refuses (a 403 on GET /endpoints: the account's plan lacks the feature) ends
// the streams of that kind only, with FORBIDDEN and the upstream's status; the other kind's streams
// go on, and the refused list is not walked again while they do.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { cloudSeeds, walked, walks } from './endpoint-support';
import {
  ENDPOINT_EVENTS,
  EVENTS,
  KEY,
  type Stack,
  type Subscriber,
  sse,
  startLiveStack,
  until,
} from './support';

describe('a refusal of one list', () => {
  let stack: Stack;
  const open: Subscriber[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    await stack.close();
  });

  it('a 403 on /endpoints ends the endpointEvents streams only; tunnelEvents go on', async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: { tunnels: makeTunnels(2, { seed: 71 }), endpoints: cloudSeeds(2, 'r') } },
    });
    const tunnels = await sse(stack.url, KEY, {}, EVENTS('id'));
    const endpoints = await sse(stack.url, KEY, {}, ENDPOINT_EVENTS());
    open.push(tunnels, endpoints);
    await until(() => stack.gateway.live.count(KEY) === 2, 'both subscriptions');
    await walked(stack, 'endpoints', 0, 1);
    stack.sandbox.inject('listEndpoints', { kind: 'status', status: 403, errorCode: 'ERR_NGROK_218' });

    await until(() => endpoints.ended !== undefined, 'the endpoint stream to end');
    expect(endpoints.results).toHaveLength(1);
    expect(endpoints.results[0]?.errors?.[0]).toMatchObject({
      message: "The ngrok API refused to list this account's endpoints (403); other live events go on.",
      extensions: { code: 'FORBIDDEN', upstream: { status: 403, errorCode: 'ERR_NGROK_218' } },
    });
    expect(endpoints.ended).toBe('complete');
    await until(() => stack.gateway.live.count(KEY) === 1, 'the endpoint subscription to leave');

    // The tunnel stream is open and still hears changes; /endpoints is not walked again meanwhile.
    const endpointCalls = stack.sandbox.calls('listEndpoints');
    const completeWalks = await walks(stack, 'endpoints');
    const added = stack.sandbox.addTunnel(KEY);
    await tunnels.received(1);
    expect(tunnels.seen()).toEqual([`ONLINE:${added.id}`]);
    await walked(stack, 'tunnels', await walks(stack, 'tunnels'), 3);
    expect(tunnels.ended).toBeUndefined();
    expect(stack.sandbox.calls('listEndpoints')).toBe(endpointCalls);
    expect(await walks(stack, 'endpoints')).toBe(completeWalks);
    expect(stack.gateway.live.pollers()).toBe(1);

    // A new endpoint subscriber asks the list again.
    const again = await sse(stack.url, KEY, { includeCurrent: true }, ENDPOINT_EVENTS());
    open.push(again);
    const listed = stack.sandbox.listEndpoints(KEY).map((e) => `ONLINE:${e.id}`);
    await again.received(listed.length);
    // The stored snapshot first (it lacks the new tunnel's endpoint), then that endpoint's ONLINE.
    expect(again.seen().toSorted()).toEqual(listed.toSorted());
  });
});
