import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, demoData, makeTunnels, type Sandbox, startSandbox } from '../../src/sandbox';
import { call, expectApiError, expectRawError, OP_ID, raw, type TunnelListBody } from './helpers';

const ALICE = 'alice_2AbCdEf';
const BOB = 'bob-key';
const aliceTunnels = makeTunnels(3, { seed: 11 });
const bobTunnels = makeTunnels(2, { seed: 12 });

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    accounts: { [ALICE]: { tunnels: aliceTunnels }, [BOB]: { tunnels: bobTunnels } },
    rateLimit: false,
  });
});
afterAll(() => sandbox.close());

const tunnels = (key: string) =>
  raw(sandbox.url, '/tunnels', { headers: { authorization: `Bearer ${key}`, 'ngrok-version': '2' } });

describe('authentication', () => {
  it('answers 403 ERR_NGROK_200 without an Authorization header', async () => {
    expectRawError(
      await raw(sandbox.url, '/tunnels', { headers: { 'ngrok-version': '2' } }),
      403,
      'ERR_NGROK_200',
    );
    expectRawError(
      await raw(sandbox.url, '/tunnels', { headers: { authorization: '', 'ngrok-version': '2' } }),
      403,
      'ERR_NGROK_200',
    );
  });

  it('answers 403 ERR_NGROK_201 when the header is not "Bearer <token>"', async () => {
    for (const authorization of [ALICE, `Basic ${ALICE}`, 'Bearer', 'Bearer ', `Token ${ALICE}`]) {
      const answer = await raw(sandbox.url, '/tunnels', { headers: { authorization, 'ngrok-version': '2' } });
      expectRawError(answer, 403, 'ERR_NGROK_201');
    }
  });

  it('answers 403 ERR_NGROK_202 when the token does not look like a credential', async () => {
    for (const token of ['not a key', 'key!', 'k'.repeat(257), 'clé', 'a.b.c']) {
      expectRawError(await tunnels(token), 403, 'ERR_NGROK_202');
    }
  });

  it('answers 403 ERR_NGROK_203 for a well-formed key it does not know', async () => {
    expectRawError(await tunnels('unknown_2AbCdEf'), 403, 'ERR_NGROK_203');
  });

  it('accepts the scheme case-insensitively', async () => {
    const answer = await raw(sandbox.url, '/tunnels', {
      headers: { authorization: `bearer ${ALICE}`, 'ngrok-version': '2' },
    });
    expect(answer.status).toBe(200);
  });

  it('checks auth before the version header and before routing', async () => {
    expectRawError(await raw(sandbox.url, '/tunnels'), 403, 'ERR_NGROK_200');
    expectRawError(
      await raw(sandbox.url, '/nowhere', { headers: { authorization: 'Bearer nobody' } }),
      403,
      'ERR_NGROK_203',
    );
  });
});

describe('accounts', () => {
  it('each key sees only its own data', async () => {
    const alice = JSON.parse((await tunnels(ALICE)).text) as TunnelListBody;
    const bob = JSON.parse((await tunnels(BOB)).text) as TunnelListBody;
    expect(alice.tunnels.map((tunnel) => tunnel.id)).toEqual(aliceTunnels.map((tunnel) => tunnel.id));
    expect(bob.tunnels.map((tunnel) => tunnel.id)).toEqual(bobTunnels.map((tunnel) => tunnel.id));
    const aliceId = aliceTunnels[0]?.id;
    expectApiError(await call(`${sandbox.url}/tunnels/${aliceId}`, { key: BOB }), 404, undefined);
  });

  it('can be added and replaced with seed(), and listed with keys', async () => {
    sandbox.seed('carol', { tunnels: bobTunnels.slice(0, 1) });
    expect(sandbox.keys).toEqual([ALICE, BOB, 'carol']);
    expect((JSON.parse((await tunnels('carol')).text) as TunnelListBody).tunnels).toHaveLength(1);
    sandbox.seed('carol', {});
    expect((JSON.parse((await tunnels('carol')).text) as TunnelListBody).tunnels).toHaveLength(0);
    expect(sandbox.account('carol')).toEqual({
      tunnels: [],
      edges: [],
      backends: [],
      endpoints: [],
      tunnelSessions: [],
      reservedDomains: [],
      reservedAddrs: [],
      credentials: [],
      tlsCertificates: [],
    });
    expect(() => sandbox.seed('not a key', {})).toThrow(TypeError);
    expect(() => sandbox.account('nobody')).toThrow();
  });

  it('copies seeds in and out', async () => {
    const seed = { tunnels: makeTunnels(1, { seed: 13 }) };
    sandbox.seed('dave', seed);
    const first = seed.tunnels[0];
    if (first) first.region = 'changed';
    const copy = sandbox.account('dave');
    expect(copy.tunnels?.[0]?.region).not.toBe('changed');
    if (copy.tunnels?.[0]) copy.tunnels[0].region = 'changed';
    expect(sandbox.account('dave').tunnels?.[0]?.region).not.toBe('changed');
  });

  it('defaults to one account with demo data under the documented key', async () => {
    const fallback = await startSandbox();
    try {
      expect(DEFAULT_API_KEY).toBe('sandbox-key');
      expect(fallback.keys).toEqual([DEFAULT_API_KEY]);
      expect(fallback.account(DEFAULT_API_KEY)).toEqual(demoData());
      expect(fallback.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await fallback.close();
    }
  });

  it('refuses to start with a key that cannot be sent as a bearer token', async () => {
    await expect(startSandbox({ accounts: { 'a b': {} } })).rejects.toThrow(TypeError);
  });
});

describe('API version header', () => {
  it('answers 400 ERR_NGROK_218 without Ngrok-Version (or with an empty one)', async () => {
    expectRawError(
      await raw(sandbox.url, '/tunnels', { headers: { authorization: `Bearer ${ALICE}` } }),
      400,
      'ERR_NGROK_218',
    );
    const empty = await raw(sandbox.url, '/tunnels', {
      headers: { authorization: `Bearer ${ALICE}`, 'ngrok-version': '' },
    });
    expectRawError(empty, 400, 'ERR_NGROK_218');
  });

  it.each(['0', '1', '3', '2.0', 'v2', 'two'])(
    'answers 400 ERR_NGROK_217 for version %s',
    async (version) => {
      const answer = await raw(sandbox.url, '/tunnels', {
        headers: { authorization: `Bearer ${ALICE}`, 'ngrok-version': version },
      });
      expectRawError(answer, 400, 'ERR_NGROK_217');
    },
  );

  it('checks the version before routing', async () => {
    expectRawError(
      await raw(sandbox.url, '/nowhere', { headers: { authorization: `Bearer ${ALICE}` } }),
      400,
      'ERR_NGROK_218',
    );
  });
});

describe('every answer', () => {
  it('is application/json with an ngrok-operation-id header, unique per request', async () => {
    const seen = new Set<string>();
    for (const path of ['/tunnels', '/tunnels/x', '/nowhere']) {
      for (const key of [ALICE, 'unknown']) {
        const answer = await call(`${sandbox.url}${path}`, { key });
        expect(answer.headers.get('content-type')).toBe('application/json');
        const id = answer.headers.get('ngrok-operation-id') ?? '';
        expect(id).toMatch(OP_ID);
        seen.add(id);
      }
    }
    expect(seen.size).toBe(6);
  });
});
