// The account graph's second step keeps every secret the upstream holds out of the gateway: a route
// module's client_secret and secret, a credential's token and a certificate's PEM reach no answer,
// log line or metric, and (with REDIS_URL and the read cache on) no Redis key or value. Scanned.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountSeed, demoData } from '../../src/sandbox';
import { until } from '../live/support';
import { redisContents } from '../support/redis-contents';
import { RedisServer, redisTestsRun } from '../support/redis-server';
import { KEY, type Stack, startStack } from '../support/stack';

const CLIENT_SECRET = 'oauth-client-secret-5f1e0c7d';
const WEBHOOK_SECRET = 'webhook-secret-9a8b7c6d';
const TOKEN = 'credential-token-2b4d6f8h';

/** The demo account, its first route with secret-bearing modules and a credential with a token set. */
function seed(): AccountSeed {
  const data = demoData();
  const [edge, ...edges] = data.edges ?? [];
  const [route, ...routes] = edge?.routes ?? [];
  const modules = {
    oauth: { enabled: true, provider: { google: { client_id: 'cid', client_secret: CLIENT_SECRET } } },
    webhook_verification: { enabled: true, provider: 'github', secret: WEBHOOK_SECRET },
  };
  const sessions = data.tunnelSessions ?? [];
  const credentialId = sessions[0]?.credential?.id ?? '';
  return {
    ...data,
    edges: edge && route ? [{ ...edge, routes: [{ ...route, modules }, ...routes] }, ...edges] : [],
    credentials: [{ id: credentialId, created_at: '2025-08-01T00:00:00Z', acl: [], token: TOKEN } as never],
  };
}

const READS = [
  '{ httpsEdges { nodes { id hostports routes { id match matchType description backend { enabled backend { id } } } } } }',
  '{ httpsEdges(first: 2) { nodes { id routes { id backend { backend { node { id } } } } } } }',
  '{ tunnelSessions(first: 5) { nodes { id credential { id node { ... on Credential { id acl ownerId tunnelSessions { nodes { id } } } } } } } }',
  '{ credentials { nodes { id description acl } } }',
  '{ reservedDomains { nodes { domain certificate { node { ... on TlsCertificate { id subjectCommonName notAfter } } } } } }',
  '{ tlsCertificates { nodes { id dnsNames notAfter serialNumber } } }',
];

async function scanAll(stack: Stack, pems: string[]): Promise<string[]> {
  const seen: string[] = [];
  for (const read of READS) {
    const { body } = await stack.gql(read);
    expect(body.errors).toBeUndefined();
    seen.push(JSON.stringify(body));
  }
  // By id too (the cache keeps GETs): the edge holding the secrets, and the certificates as nodes.
  const certs = JSON.parse(seen[5] ?? '{}').data.tlsCertificates.nodes as { id: string }[];
  const { body } = await stack.gql(
    'query($edge: ID!, $ids: [ID!]!) { httpsEdge(id: $edge) { routes { id backend { backend { node { id } } } } } nodes(ids: $ids) { id } }',
    { edge: seed().edges?.[0]?.id, ids: certs.map((c) => c.id) },
  );
  expect(body.errors).toBeUndefined();
  seen.push(JSON.stringify(body));
  seen.push(await (await fetch(stack.url.replace(/\/graphql$/, '/metrics'))).text());
  seen.push(stack.text());
  expect(pems.length).toBeGreaterThan(0);
  return seen;
}

/** The secrets as the stand-in holds them: fixed strings, and each certificate's PEM body line. */
async function secrets(stack: Stack): Promise<string[]> {
  const response = await fetch(`${stack.sandbox.url}/tls_certificates`, {
    headers: { Authorization: `Bearer ${KEY}`, 'Ngrok-Version': '2' },
  });
  const { tls_certificates: certs } = (await response.json()) as {
    tls_certificates: { certificate_pem: string }[];
  };
  const pems = certs.map((c) => c.certificate_pem.split('\n')[1] ?? '');
  return [CLIENT_SECRET, WEBHOOK_SECRET, TOKEN, 'BEGIN CERTIFICATE', ...pems];
}

describe('no secret of edges, credentials or certificates in answers, logs or metrics', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: seed() }, env: { CACHE_TTL_MS: '60000' } });
  });
  afterAll(() => stack.close());

  it('the stand-in sends them; the gateway passes none on', async () => {
    const raw = await (
      await fetch(`${stack.sandbox.url}/edges/https`, {
        headers: { Authorization: `Bearer ${KEY}`, 'Ngrok-Version': '2' },
      })
    ).text();
    // Fixture check: the secrets are in what the upstream sends.
    expect(raw).toContain(CLIENT_SECRET);
    expect(raw).toContain(WEBHOOK_SECRET);
    const credentials = await (
      await fetch(`${stack.sandbox.url}/credentials`, {
        headers: { Authorization: `Bearer ${KEY}`, 'Ngrok-Version': '2' },
      })
    ).text();
    expect(credentials).toContain(TOKEN);
    const all = await secrets(stack);
    const seen = await scanAll(stack, all.slice(4));
    for (const secret of all)
      expect([secret, seen.filter((text) => text.includes(secret)).length]).toEqual([secret, 0]);
  });
});

describe.runIf(redisTestsRun)('no secret of edges, credentials or certificates in Redis', () => {
  let redis: RedisServer;
  let stack: Stack;
  beforeAll(async () => {
    redis = await RedisServer.start();
    stack = await startStack({
      accounts: { [KEY]: seed() },
      env: { REDIS_URL: redis.url, CACHE_TTL_MS: '60000' },
    });
    await until(
      () => stack.lines().some((l) => String(l.msg).startsWith('Redis connected')),
      'the gateway to reach Redis',
      15_000,
    );
  }, 30_000);
  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  it('every key and value scanned after the reads: the cached answers are there, the secrets are not', async () => {
    const all = await secrets(stack);
    await scanAll(stack, all.slice(4));
    const admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      const { keys, texts } = await redisContents(admin);
      expect(keys.length).toBeGreaterThan(2);
      for (const secret of all)
        expect([secret, texts.filter((t) => t.includes(secret)).length]).toEqual([secret, 0]);
    } finally {
      admin.disconnect();
    }
  });
});
