// The account graph's second step, what the account issued: credentials and TLS certificates as
// lists, by id and as nodes, every field compared with the stand-in's JSON; TunnelSession.credential
// and ReservedDomain.certificate resolving at one filtered call per 100 ids (50 agents: 1 + 1; 30
// domains: 1 + 1); Credential.tunnelSessions filtered upstream; nodes over mixed ids of the new kinds.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoData, joinedAccount, reservationsFor } from '../../src/sandbox';
import { dataOf, KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';
import { type Json, text, upstreamItems, upstreamJson } from '../support/upstream-json';

const CREDENTIAL = 'id description metadata createdAt acl ownerId';
const CERTIFICATE =
  'id description metadata createdAt subjectCommonName dnsNames issuerCommonName notBefore notAfter serialNumber privateKeyType';

const credential = (c: Json): Json => ({
  id: c.id,
  description: text(c.description),
  metadata: text(c.metadata),
  createdAt: c.created_at,
  acl: c.acl,
  ownerId: text(c.owner_id),
});

const certificate = (c: Json): Json => ({
  id: c.id,
  description: text(c.description),
  metadata: text(c.metadata),
  createdAt: c.created_at,
  subjectCommonName: c.subject_common_name,
  dnsNames: (c.subject_alternative_names as Json).dns_names,
  issuerCommonName: text(c.issuer_common_name),
  notBefore: c.not_before,
  notAfter: c.not_after,
  serialNumber: text(c.serial_number),
  privateKeyType: text(c.private_key_type),
});

/** 50 agents on credentials of their own, and 30 custom domains each with its certificate. */
function account() {
  const joined = joinedAccount(50, { seed: 21 });
  const domains = Array.from({ length: 30 }, (_, i) => `https://shop-${i}.example.com`);
  const { reservedDomains } = reservationsFor(domains, 9, new Date('2025-08-20T00:00:00Z'));
  return { ...joined, reservedDomains };
}

describe('credentials and TLS certificates', () => {
  let stack: Stack;
  let credentials: Json[];
  let certificates: Json[];
  beforeAll(async () => {
    stack = await startStack({ accounts: { [KEY]: account(), [OTHER_KEY]: demoData() } });
    credentials = await upstreamItems(stack, '/credentials');
    certificates = await upstreamItems(stack, '/tls_certificates');
  });
  afterAll(() => stack.close());
  beforeEach(() => stack.sandbox.resetCalls());

  it('lists them page by page and reads each by id, every field as the upstream sends it', async () => {
    expect([credentials.length, certificates.length]).toEqual([50, 30]);
    const { body } = await stack.gql(
      `query($cr: ID!, $cert: ID!) {
        credentials(first: 100) { nodes { ${CREDENTIAL} } }
        tlsCertificates(first: 20) { nodes { ${CERTIFICATE} } pageInfo { hasNextPage } }
        credential(id: $cr) { ${CREDENTIAL} } tlsCertificate(id: $cert) { ${CERTIFICATE} } }`,
      { cr: credentials[7]?.id, cert: certificates[3]?.id },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      credentials: { nodes: credentials.map(credential) },
      tlsCertificates: { nodes: certificates.slice(0, 20).map(certificate), pageInfo: { hasNextPage: true } },
      credential: credential(credentials[7] ?? {}),
      tlsCertificate: certificate(certificates[3] ?? {}),
    });
    // Listed first, the two by-id reads cost nothing more.
    expect([stack.sandbox.calls('listCredentials'), stack.sandbox.calls('listTlsCertificates')]).toEqual([
      1, 1,
    ]);
    expect(stack.sandbox.calls()).toBe(2);
  });

  it('50 agents with their credentials: one sessions call and one credentials call', async () => {
    const sessions = await upstreamItems(stack, '/tunnel_sessions');
    stack.sandbox.resetCalls();
    const { body, upstreamCalls } = await stack.gql(
      `{ tunnelSessions(first: 50) { nodes { id credential { id node { ... on Credential { ${CREDENTIAL} } } } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const byId = new Map(credentials.map((c) => [c.id, c]));
    const nodes = dataOf<{ nodes: { id: string; credential: { id: string; node: Json } }[] }>(
      body,
      'tunnelSessions',
    ).nodes;
    expect(nodes.map((n) => n.id)).toEqual(sessions.map((s) => s.id));
    for (const [i, n] of nodes.entries()) {
      const ref = sessions[i]?.credential as Json;
      expect(n.credential).toEqual({ id: ref.id, node: credential(byId.get(ref.id) ?? {}) });
    }
    expect([stack.sandbox.calls('listTunnelSessions'), stack.sandbox.calls('listCredentials')]).toEqual([
      1, 1,
    ]);
    expect(stack.sandbox.calls()).toBe(2);
    expect(upstreamCalls).toEqual({ predicted: 2, made: 2 });
  });

  it('30 reserved domains with their certificates: one domains call and one certificates call', async () => {
    const domains = await upstreamItems(stack, '/reserved_domains');
    stack.sandbox.resetCalls();
    const { body, upstreamCalls } = await stack.gql(
      `{ reservedDomains(first: 30) { nodes { id certificate { id node { ... on TlsCertificate { ${CERTIFICATE} } } } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const byId = new Map(certificates.map((c) => [c.id, c]));
    const nodes = dataOf<{ nodes: { id: string; certificate: { id: string; node: Json } }[] }>(
      body,
      'reservedDomains',
    ).nodes;
    expect(nodes.map((n) => n.id)).toEqual(domains.map((d) => d.id));
    for (const [i, n] of nodes.entries()) {
      const ref = domains[i]?.certificate as Json;
      expect(n.certificate).toEqual({ id: ref.id, node: certificate(byId.get(ref.id) ?? {}) });
    }
    expect(stack.sandbox.calls()).toBe(2);
    expect(upstreamCalls).toEqual({ predicted: 2, made: 2 });
  });

  it("a credential's agents: the sessions list filtered upstream by credential, one call", async () => {
    const sessions = await upstreamItems(stack, '/tunnel_sessions');
    const target = sessions[4]?.credential as Json;
    stack.sandbox.resetCalls();
    const { body } = await stack.gql(
      'query($id: ID!) { credential(id: $id) { id tunnelSessions { nodes { id credential { id } } } } }',
      { id: target.id },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data?.credential).toEqual({
      id: target.id,
      tunnelSessions: { nodes: [{ id: sessions[4]?.id, credential: { id: target.id } }] },
    });
    expect([stack.sandbox.calls('listCredentials'), stack.sandbox.calls('listTunnelSessions')]).toEqual([
      1, 1,
    ]);
  });

  it('nodes over 10 mixed ids of the new kinds: one filtered call per kind read by list, one GET per backend or edge', async () => {
    const edges = await upstreamItems(stack, '/edges/https', OTHER_KEY);
    const kinds = ['tunnel_group', 'failover', 'weighted', 'http_response', 'static'];
    const backends = await Promise.all(
      kinds.map(async (k) => (await upstreamItems(stack, `/backends/${k}`, OTHER_KEY))[0] ?? {}),
    );
    const creds = (await upstreamItems(stack, '/credentials', OTHER_KEY)).slice(0, 2);
    const certs = (await upstreamItems(stack, '/tls_certificates', OTHER_KEY)).slice(0, 2);
    const ids = [
      edges[0]?.id,
      ...backends.map((b) => b.id),
      ...creds.map((c) => c.id),
      ...certs.map((c) => c.id),
    ];
    expect(ids.length).toBe(10);
    stack.sandbox.resetCalls();
    const { body, upstreamCalls } = await stack.gql(
      'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }',
      { ids },
      { key: OTHER_KEY },
    );
    expect(body.errors).toBeUndefined();
    const typenames = [
      'HttpsEdge',
      'TunnelGroupBackend',
      'FailoverBackend',
      'WeightedBackend',
      'HttpResponseBackend',
      'StaticBackend',
      'Credential',
      'Credential',
      'TlsCertificate',
      'TlsCertificate',
    ];
    expect(body.data?.nodes).toEqual(ids.map((id, i) => ({ __typename: typenames[i], id })));
    // One GET for the edge and each backend, one filtered list each for credentials and certificates.
    expect(upstreamCalls).toEqual({ predicted: 8, made: 8 });
    expect([
      stack.sandbox.calls('listCredentials', OTHER_KEY),
      stack.sandbox.calls('listTlsCertificates', OTHER_KEY),
    ]).toEqual([1, 1]);
  });

  it('a deleted certificate or credential is null; a demo domain certificate expires within 30 days', async () => {
    const { body } = await stack.gql(
      '{ credential(id: "cr_2Zzzzzzzzzzzzzzzzzzzzzzzzzz") { id } tlsCertificate(id: "cert_2Zzzzzzzzzzzzzzzzzzzzzzzzzz") { id } }',
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ credential: null, tlsCertificate: null });
    const demo = await upstreamJson(stack, '/tls_certificates?limit=1', OTHER_KEY);
    const soonest = (demo.tls_certificates as Json[])[0];
    const days = (Date.parse(String(soonest?.not_after)) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(0);
    expect(days).toBeLessThan(30);
  });
});
