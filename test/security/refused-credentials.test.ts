// A credential the upstream refused is remembered (by digest, for REFUSED_CREDENTIAL_TTL_MS, at most
// REFUSED_CREDENTIAL_MAX_ENTRIES of them): repeating it, or flooding distinct bogus keys, costs one
// upstream call per key, and memory stays bounded.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels } from '../../src/sandbox';
import { KEY, type Stack, startStack } from '../support/stack';

const tunnels = makeTunnels(1, { seed: 3 });
const LIST = '{ tunnels(first: 1) { nodes { id } } }';

describe('refused credentials (pass-through mode)', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({
      accounts: { [KEY]: { tunnels } },
      env: { REFUSED_CREDENTIAL_MAX_ENTRIES: '50' },
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.resetCalls());

  it('the same bogus key, five times: one upstream call, five UNAUTHENTICATED', async () => {
    for (let i = 0; i < 5; i += 1) {
      const { body } = await h.gql(LIST, undefined, { key: 'bogus-key-0123456789' });
      expect(body.data).toBeNull();
      expect(body.errors?.[0]?.message).toBe('The ngrok API refused the credential.');
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect(h.sandbox.calls()).toBe(1);
  });

  it('a good key is not affected by the refused ones', async () => {
    const { body } = await h.gql(LIST, undefined, { key: KEY });
    expect(body).toEqual({ data: { tunnels: { nodes: [{ id: tunnels[0]?.id }] } } });
  });

  it('200 distinct bogus keys: one call each, the store stays at its cap of 50', async () => {
    for (let i = 0; i < 200; i += 1) {
      const { body } = await h.gql(LIST, undefined, { key: `flood-${i}-0123456789` });
      expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(h.gateway.transport.refusedCredentials).toBeLessThanOrEqual(50);
    }
    expect(h.sandbox.calls()).toBe(200);
    expect(h.gateway.transport.refusedCredentials).toBe(50);
    // The most recent are remembered: no call; the earliest were evicted: one call again.
    await h.gql(LIST, undefined, { key: 'flood-199-0123456789' });
    expect(h.sandbox.calls()).toBe(200);
    await h.gql(LIST, undefined, { key: 'flood-0-0123456789' });
    expect(h.sandbox.calls()).toBe(201);
  });
});

describe('REFUSED_CREDENTIAL_TTL_MS', () => {
  let h: Stack;
  beforeAll(async () => {
    h = await startStack({ accounts: { [KEY]: { tunnels } }, env: { REFUSED_CREDENTIAL_TTL_MS: '0' } });
  });
  afterAll(() => h.close());

  it('0 turns the memory off: every request asks the upstream', async () => {
    for (let i = 0; i < 3; i += 1) await h.gql(LIST, undefined, { key: 'bogus-key-0123456789' });
    expect(h.sandbox.calls()).toBe(3);
    expect(h.gateway.transport.refusedCredentials).toBe(0);
  });
});
