import { afterAll, beforeAll, expect } from 'vitest';
import {
  type AccountSeed,
  type CloudEndpoint,
  makeTunnels,
  newId,
  type Sandbox,
  startSandbox,
  type UpstreamTunnel,
} from '../../src/sandbox';
import { call } from './helpers';

// Shared by the /endpoints tests: policies, the tunnel/endpoint suffix rule, seeded cloud endpoints.

export const POLICY = '{"on_http_request":[{"actions":[{"type":"deny","config":{"status_code":404}}]}]}';
export const YAML_POLICY =
  'on_http_request:\n  - actions:\n      - type: custom-response\n        config:\n          status_code: 200\n';

export const suffix = (id: string) => id.slice(id.indexOf('_') + 1);
export const isAgent = (tunnel: UpstreamTunnel) => tunnel.proto !== undefined && tunnel.labels === undefined;

/** Cloud endpoints minted among the tunnels' times, so both kinds interleave in the list. */
export function cloudsAmong(tunnels: UpstreamTunnel[], count: number, tag: string): CloudEndpoint[] {
  return Array.from({ length: count }, (_, i) => {
    const tunnel = tunnels[(i * 3) % tunnels.length] as UpstreamTunnel;
    const created = new Date(Date.parse(tunnel.started_at) + 500);
    return {
      id: newId('ep', created),
      url: i % 4 === 0 ? `https://${tag}-${i}.internal` : `https://${tag}-${i}.example.com`,
      created_at: created.toISOString(),
      updated_at: created.toISOString(),
      traffic_policy: POLICY,
      bindings: [i % 4 === 0 ? 'internal' : 'public'],
      ...(i % 3 === 0 ? { description: `endpoint ${i}` } : {}),
    };
  });
}

export function expectMsg(answer: { json: unknown }, msg: string): void {
  expect((answer.json as { msg: string }).msg).toBe(msg);
}

/** The account the write tests change: six agent tunnels and three cloud endpoints. */
export const WRITES = 'writes-key';

/**
 * A stand-in for one test file, started before its tests and closed after them: the WRITES account,
 * an empty one, and the file's own accounts.
 */
export function writableStandIn(accounts: () => Record<string, AccountSeed> = () => ({})) {
  const writeTunnels = makeTunnels(6, { seed: 22, kind: 'agent' });
  let sandbox: Sandbox | undefined;
  let writesSeed: CloudEndpoint[] = [];
  beforeAll(async () => {
    writesSeed = cloudsAmong(writeTunnels, 3, 'w');
    sandbox = await startSandbox({
      accounts: {
        ...accounts(),
        [WRITES]: { tunnels: writeTunnels, endpoints: writesSeed },
        'empty-key': {},
      },
      rateLimit: false,
    });
  });
  afterAll(() => sandbox?.close());
  const standIn = {
    writeTunnels,
    get sandbox(): Sandbox {
      if (!sandbox) throw new Error('the stand-in starts in beforeAll');
      return sandbox;
    },
    get writesSeed(): CloudEndpoint[] {
      return writesSeed;
    },
    endpointsUrl: (query = '') => `${standIn.sandbox.url}/endpoints${query}`,
    create: (body: unknown, key = WRITES) => call(standIn.endpointsUrl(), { key, method: 'POST', body }),
  };
  return standIn;
}
