// commandTunnelSession: a write sent exactly once. 204 is the payload; 404 a NotFoundError; the
// agent's refusal an InvalidInputError carrying the upstream's cleaned msg; a 5xx or a lost answer
// an error with outcome UNKNOWN after one POST. Later reads show what the upstream says, over HTTP
// and graphql-ws, and one key never reaches another account's agents.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AccountSeed, type Fault, joinedAccount, newId, type RouteName } from '../../src/sandbox';
import { cleanedRefusal } from '../../src/upstream/exchange/answer-errors';
import { dataOf, KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';
import { run, type WsClient, wsClient } from '../support/websocket';

const COMMAND = `mutation($input: CommandTunnelSessionInput!) { commandTunnelSession(input: $input) {
  __typename
  ... on CommandTunnelSessionPayload { id command }
  ... on NotFoundError { message code missing: id }
  ... on InvalidInputError { message code field }
} }`;
const UNKNOWN =
  'The ngrok API did not confirm the change, which may have been applied; read it back before retrying.';
const ROUTES: Record<string, RouteName> = {
  RESTART: 'restartTunnelSession',
  STOP: 'stopTunnelSession',
  UPDATE: 'updateTunnelSession',
};

const joined = joinedAccount(8, { seed: 41 });
const ids = (joined.tunnelSessions ?? []).map((s) => s.id);
const UPDATES = ['none', 'disabled', 'in-progress', 'awaiting-restart'] as const;
/** ids[0] runs on Windows; ids[1..4] meet each refusal of update; the rest are plain Linux agents. */
function account(): AccountSeed {
  const sessions = (joined.tunnelSessions ?? []).map((session, i) => {
    const update = UPDATES[i - 1];
    const { metadata: _, ...rest } = session;
    return {
      ...rest,
      os: i === 0 ? 'windows' : 'linux',
      ...(update ? { metadata: JSON.stringify({ update }) } : {}),
    };
  });
  return structuredClone({ ...joined, tunnelSessions: sessions });
}

type Result = Record<string, unknown> & { __typename: string };

describe('commandTunnelSession', () => {
  let stack: Stack;
  let ws: WsClient;
  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: account(), [OTHER_KEY]: account() },
      websocket: true,
      env: { CACHE_TTL_MS: '60000', UPSTREAM_TIMEOUT_MS: '300', BREAKER_FAILURE_THRESHOLD: '0' },
    });
    ws = wsClient(stack.wsUrl, { key: KEY });
  });
  afterAll(async () => {
    await ws.dispose();
    await stack.close();
  });
  beforeEach(() => {
    stack.sandbox.clearFaults();
    stack.sandbox.seed(KEY, account());
    stack.sandbox.seed(OTHER_KEY, account());
    stack.sandbox.resetCalls();
  });

  const command = async (id: string, cmd: string, key = KEY) =>
    (await stack.gql(COMMAND, { input: { id, command: cmd } }, { key })).body;
  const result = async (id: string, cmd: string, key = KEY) =>
    dataOf<Result>(await command(id, cmd, key), 'commandTunnelSession');
  const listed = (key = KEY) => stack.sandbox.listed(key, 'tunnel_sessions').map((s) => s.id);
  const sessionsRead = async () =>
    dataOf<{ nodes: { id: string }[] }>(
      (await stack.gql('{ tunnelSessions(first: 100) { nodes { id } } }')).body,
      'tunnelSessions',
    ).nodes.map((n) => n.id);

  for (const [cmd, index] of [
    ['STOP', 5],
    ['RESTART', 6],
    ['UPDATE', 7],
  ] as const) {
    it(`${cmd}: one POST with body {}, the payload, and later reads show what the upstream says`, async () => {
      // Read first, so the list is in the read cache (60 s): the command must clear it. Each command
      // has an agent of its own, which the cache of an earlier test still shows.
      const id = ids[index] ?? '';
      expect(await sessionsRead()).toContain(id);
      stack.sandbox.resetCalls();
      expect(await result(id, cmd)).toEqual({ __typename: 'CommandTunnelSessionPayload', id, command: cmd });
      expect(stack.sandbox.calls(ROUTES[cmd])).toBe(1);
      expect(stack.sandbox.calls()).toBe(1);
      const after = await sessionsRead();
      expect(after).toEqual(listed());
      expect(after.includes(id)).toBe(cmd === 'UPDATE');
      expect(after).toHaveLength(cmd === 'STOP' ? ids.length - 1 : ids.length);
    });
  }

  it('an unknown session is a NotFoundError; a malformed id an InvalidInputError with no call', async () => {
    const missing = newId('ts');
    expect(await result(missing, 'STOP')).toEqual({
      __typename: 'NotFoundError',
      message: `No online tunnel session ${missing}.`,
      code: 'NOT_FOUND',
      missing,
    });
    expect(stack.sandbox.calls()).toBe(1);
    stack.sandbox.resetCalls();
    for (const bad of [newId('ep'), 'ts_../../x', 'ts_']) {
      expect(await result(bad, 'RESTART')).toMatchObject({ __typename: 'InvalidInputError', field: 'id' });
    }
    expect(stack.sandbox.calls()).toBe(0);
  });

  const refusals: [string, number, string, RegExp][] = [
    ['restart on Windows', 0, 'RESTART', /remote restarting: restarting is not supported on Windows\.$/],
    ['update: none available', 1, 'UPDATE', /no update is available/],
    ['update: disabled', 2, 'UPDATE', /update checks are disabled/],
    ['update: in progress', 3, 'UPDATE', /already in progress/],
    ['update: done, awaiting a restart', 4, 'UPDATE', /must be restarted/],
  ];
  for (const [name, index, cmd, reason] of refusals) {
    it(`${name}: an InvalidInputError with the upstream's cleaned msg, one POST`, async () => {
      const answer = await stack.gql(COMMAND, { input: { id: ids[index], command: cmd } });
      const refused = dataOf<Result>(answer.body, 'commandTunnelSession');
      expect(refused).toMatchObject({
        __typename: 'InvalidInputError',
        code: 'INVALID_INPUT',
        field: 'command',
      });
      expect(refused.message).toMatch(reason);
      const upstream = stack.of('attempt').at(-1);
      expect(upstream).toMatchObject({ route: ROUTES[cmd], status: 400 });
      expect(refused.message).toBe(cleanedRefusal(refused.message));
      expect(stack.sandbox.calls()).toBe(1);
      expect(listed()).toContain(ids[index]);
    });
  }

  const unknown: [string, Fault, string][] = [
    ['a 500', { kind: 'status', status: 500 }, 'UPSTREAM_UNAVAILABLE'],
    ['a 503', { kind: 'status', status: 503 }, 'UPSTREAM_UNAVAILABLE'],
    ['a timeout', { kind: 'hang' }, 'UPSTREAM_TIMEOUT'],
    ['a reset', { kind: 'drop' }, 'UPSTREAM_UNAVAILABLE'],
    ['an unreadable answer', { kind: 'malformedJson' }, 'UPSTREAM_BAD_RESPONSE'],
  ];
  for (const [name, fault, code] of unknown) {
    it(`${name}: ${code} with outcome UNKNOWN after exactly one POST, never retried`, async () => {
      stack.sandbox.inject('stopTunnelSession', fault);
      const body = await command(ids[6] ?? '', 'STOP');
      expect(body.data).toBeNull();
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0]?.message).toBe(UNKNOWN);
      expect(body.errors?.[0]?.extensions).toMatchObject({ code, outcome: 'UNKNOWN' });
      expect(stack.sandbox.calls('stopTunnelSession')).toBe(1);
      expect(stack.sandbox.calls()).toBe(1);
    });
  }

  it('over graphql-ws: the same answers (payload, refusal, UNKNOWN)', async () => {
    const send = (id: string, cmd: string) => run(ws, COMMAND, { input: { id, command: cmd } });
    expect(await send(ids[5] ?? '', 'UPDATE')).toEqual({
      results: [
        {
          data: {
            commandTunnelSession: {
              __typename: 'CommandTunnelSessionPayload',
              id: ids[5],
              command: 'UPDATE',
            },
          },
        },
      ],
    });
    const refused = (await send(ids[0] ?? '', 'RESTART')).results[0]?.data?.commandTunnelSession;
    expect(refused).toMatchObject({ __typename: 'InvalidInputError', field: 'command' });
    stack.sandbox.inject('stopTunnelSession', { kind: 'hang' });
    const lost = await send(ids[6] ?? '', 'STOP');
    expect(lost.results[0]?.errors?.[0]?.extensions).toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      outcome: 'UNKNOWN',
    });
    expect(stack.sandbox.calls('updateTunnelSession')).toBe(1);
    expect(stack.sandbox.calls('restartTunnelSession')).toBe(1);
    expect(stack.sandbox.calls('stopTunnelSession')).toBe(1);
  });

  it("tenant isolation: one key cannot command another account's agent", async () => {
    const id = ids[6] ?? '';
    // Both accounts were seeded alike: give KEY an agent OTHER_KEY does not have.
    stack.sandbox.seed(OTHER_KEY, { tunnels: [], tunnelSessions: [] });
    expect(await result(id, 'STOP', OTHER_KEY)).toMatchObject({ __typename: 'NotFoundError', missing: id });
    expect(stack.sandbox.calls('stopTunnelSession', OTHER_KEY)).toBe(1);
    expect(stack.sandbox.calls('stopTunnelSession', KEY)).toBe(0);
    expect(listed()).toContain(id);
  });
  // Last: the 429 pauses this key's calls for its Retry-After.
  it('a 429 is RATE_LIMITED and not UNKNOWN: the upstream refused before the agent heard of it', async () => {
    stack.sandbox.inject('restartTunnelSession', { kind: 'rateLimit', retryAfter: 30 });
    const body = await command(ids[6] ?? '', 'RESTART');
    expect(body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(body.errors?.[0]?.extensions?.outcome).toBeUndefined();
    expect(stack.sandbox.calls('restartTunnelSession')).toBe(1);
  });
});
