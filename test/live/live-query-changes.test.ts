// What moves a live query: writes through the gateway at once (no poll needed: the poll interval
// here is a minute), and each observed kind's changes, those no event names included (a reserved
// domain's description, an agent gone), each patched to exactly what a fresh query answers.
import { afterEach, describe, expect, it } from 'vitest';
import { joinedAccount } from '../../src/sandbox';
import { type LiveClient, liveSse } from './live-query-support';
import { KEY, type Stack, startLiveStack, until } from './support';

const ENDPOINTS =
  'query @live { endpoints(first: 5) { nodes { id url description } pageInfo { hasNextPage } } }';
const DOMAINS = 'query @live { reservedDomains(first: 5) { nodes { id domain description } } }';
const ADDRESSES = 'query @live { reservedAddresses(first: 5) { nodes { id addr description } } }';
const AGENTS = 'query @live { tunnelSessions(first: 10) { nodes { id os } } }';

describe('what moves a live query', () => {
  let stack: Stack;
  const open: LiveClient[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    await stack.close();
  });

  async function converges(client: LiveClient, query: string) {
    let fresh: unknown;
    await until(async () => {
      fresh = (await stack.gql(query.replace(' @live', ''))).body.data;
      return JSON.stringify(await client.data()) === JSON.stringify(fresh);
    }, 'the live result to equal a fresh answer');
    expect(await client.data()).toEqual(fresh);
  }

  it('a write through the gateway patches the live endpoints at once, without a poll', async () => {
    stack = await startLiveStack({
      accounts: { [KEY]: joinedAccount(3, { seed: 40 }) },
      env: { LIVE_POLL_INTERVAL_MS: '60000' },
    });
    const client = await liveSse(stack.url, KEY, ENDPOINTS);
    open.push(client);
    await client.received(1);
    const walks = stack.sandbox.calls('listEndpoints');
    const created = await stack.gql(
      `mutation { createCloudEndpoint(input: { url: "https://live-write.example.com", trafficPolicy: "on_http_request: []", description: "written" }) {
        __typename ... on CreateCloudEndpointPayload { endpoint { id } } } }`,
    );
    expect(created.body.data?.createCloudEndpoint).toMatchObject({
      __typename: 'CreateCloudEndpointPayload',
    });
    await client.received(2);
    expect(JSON.stringify(await client.data())).toContain('https://live-write.example.com');
    // No walk of endpoints came between: the write moved the observation.
    expect(stack.sandbox.calls('listEndpoints')).toBe(walks);
    await converges(client, ENDPOINTS);
  });

  it('reserved domains and addresses, and agents, patched when they change with no event to name it', async () => {
    const account = joinedAccount(4, { seed: 41 });
    stack = await startLiveStack({ accounts: { [KEY]: account } });
    const clients = [
      await liveSse(stack.url, KEY, DOMAINS),
      await liveSse(stack.url, KEY, ADDRESSES),
      await liveSse(stack.url, KEY, AGENTS),
    ];
    open.push(...clients);
    for (const c of clients) await c.received(1);
    const now = stack.sandbox.account(KEY);
    stack.sandbox.seed(KEY, {
      ...now,
      reservedDomains: now.reservedDomains?.map((d, i) => (i === 0 ? { ...d, description: 'renamed' } : d)),
      reservedAddrs: now.reservedAddrs?.map((a, i) => (i === 0 ? { ...a, description: 'moved' } : a)),
      tunnelSessions: now.tunnelSessions?.slice(1),
    });
    for (const c of clients) await c.received(2);
    await converges(clients[0] as LiveClient, DOMAINS);
    await converges(clients[1] as LiveClient, ADDRESSES);
    await converges(clients[2] as LiveClient, AGENTS);
    expect(JSON.stringify(await clients[0]?.data())).toContain('renamed');
  });
});
