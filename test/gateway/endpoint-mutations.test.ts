import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTunnels, newId } from '../../src/sandbox';
import { cleanedRefusal } from '../../src/upstream/exchange/answer-errors';
import { dataOf, KEY, OTHER_KEY, type Stack, startStack } from '../support/stack';

const POLICY = 'on_http_request: [{actions: [{type: deny}]}]';
const FIELDS = 'id url type typeName description metadata trafficPolicy bindings poolingEnabled updatedAt';
const CREATE = `mutation($input: CreateCloudEndpointInput!) { createCloudEndpoint(input: $input) {
  __typename
  ... on CreateCloudEndpointPayload { endpoint { ${FIELDS} } }
  ... on InvalidInputError { message code field }
} }`;
const UPDATE = `mutation($input: UpdateEndpointInput!) { updateEndpoint(input: $input) {
  __typename
  ... on UpdateEndpointPayload { endpoint { ${FIELDS} } }
  ... on InvalidInputError { message code field }
  ... on NotFoundError { message code id }
} }`;
const DELETE = `mutation($input: DeleteEndpointInput!) { deleteEndpoint(input: $input) {
  __typename
  ... on DeleteEndpointPayload { id }
  ... on InvalidInputError { message code field }
  ... on NotFoundError { message code missing: id }
} }`;
const UNKNOWN =
  'The ngrok API did not confirm the change, which may have been applied; read it back before retrying.';

type Result = Record<string, unknown> & { __typename: string };

describe('endpoint mutations', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      accounts: { [KEY]: { tunnels: makeTunnels(3, { seed: 5 }) }, [OTHER_KEY]: {} },
      env: { CACHE_TTL_MS: '60000', UPSTREAM_TIMEOUT_MS: '300', BREAKER_FAILURE_THRESHOLD: '0' },
    });
  });
  afterAll(() => stack.close());
  beforeEach(() => {
    stack.sandbox.clearFaults();
    stack.sandbox.resetCalls();
  });

  const upstreamOf = (id: string, key = KEY) => stack.sandbox.listEndpoints(key).find((e) => e.id === id);
  const create = async (input: Record<string, unknown>, key = KEY) =>
    dataOf<Result>((await stack.gql(CREATE, { input }, { key })).body, 'createCloudEndpoint');
  const update = async (input: Record<string, unknown>) =>
    dataOf<Result>((await stack.gql(UPDATE, { input })).body, 'updateEndpoint');

  it('createCloudEndpoint creates, and the same operation and later reads see it (cache cleared)', async () => {
    const before = await stack.gql('{ endpoints(first: 100) { nodes { id } } }');
    const countBefore = dataOf<{ nodes: unknown[] }>(before.body, 'endpoints').nodes.length;
    stack.sandbox.resetCalls();
    const made = await create({ url: 'https://New.example.com', trafficPolicy: POLICY, description: 'd' });
    expect(made.__typename).toBe('CreateCloudEndpointPayload');
    const endpoint = made.endpoint as Record<string, unknown>;
    expect(endpoint).toMatchObject({
      url: 'https://new.example.com',
      type: 'CLOUD',
      typeName: 'cloud',
      description: 'd',
      metadata: null,
      trafficPolicy: POLICY,
      bindings: ['public'],
      poolingEnabled: false,
    });
    expect(upstreamOf(String(endpoint.id))?.description).toBe('d');
    expect(stack.sandbox.calls('createEndpoint')).toBe(1);
    const after = await stack.gql('{ endpoints(first: 100) { nodes { id } } }');
    const ids = dataOf<{ nodes: { id: string }[] }>(after.body, 'endpoints').nodes.map((n) => n.id);
    expect(ids).toHaveLength(countBefore + 1);
    expect(ids[0]).toBe(endpoint.id);
    expect(stack.sandbox.calls('listEndpoints')).toBe(1);
  });

  it('a write primes the operation loader: endpoint(id) after it costs no call', async () => {
    const id = stack.sandbox.addEndpoint(KEY).id;
    stack.sandbox.resetCalls();
    const { body } = await stack.gql(
      `mutation($id: ID!) { updateEndpoint(input: { id: $id, description: "primed" }) { __typename }
        check: updateEndpoint(input: { id: $id, metadata: "m" }) { ... on UpdateEndpointPayload { endpoint { description metadata } } } }`,
      { id },
    );
    expect(body.data?.check).toEqual({ endpoint: { description: 'primed', metadata: 'm' } });
    const read = await stack.gql(`{ endpoint(id: "${id}") { description metadata } }`);
    expect(read.body.data?.endpoint).toEqual({ description: 'primed', metadata: 'm' });
    expect(stack.sandbox.calls('updateEndpoint')).toBe(2);
  });

  it('a partial update sends only the given fields; null clears description and metadata', async () => {
    const seeded = stack.sandbox.addEndpoint(KEY, {
      description: 'keep',
      metadata: 'meta',
      traffic_policy: POLICY,
    });
    const policy = 'on_http_request: [{actions: [{type: custom-response}]}]';
    const changed = await update({ id: seeded.id, trafficPolicy: policy });
    expect(changed.endpoint).toMatchObject({
      url: seeded.url,
      description: 'keep',
      metadata: 'meta',
      trafficPolicy: policy,
    });
    expect(upstreamOf(seeded.id)).toMatchObject({
      description: 'keep',
      metadata: 'meta',
      traffic_policy: policy,
    });
    const cleared = await update({ id: seeded.id, description: null, metadata: null });
    expect(cleared.endpoint).toMatchObject({ description: null, metadata: null, trafficPolicy: policy });
    const upstream = upstreamOf(seeded.id);
    expect(upstream?.description).toBeUndefined();
    expect(upstream?.metadata).toBeUndefined();
    expect(stack.sandbox.calls('updateEndpoint')).toBe(2);
  });

  it('null for another field is an InvalidInputError with no call', async () => {
    const id = stack.sandbox.addEndpoint(KEY).id;
    stack.sandbox.resetCalls();
    for (const field of ['url', 'trafficPolicy', 'bindings', 'poolingEnabled']) {
      expect(await update({ id, [field]: null })).toEqual({
        __typename: 'InvalidInputError',
        code: 'INVALID_INPUT',
        field,
        message: `${field} cannot be null; leave it out to keep it as it is.`,
      });
    }
    expect(await update({ id: 'tn_abc' })).toMatchObject({ __typename: 'InvalidInputError', field: 'id' });
    expect(stack.sandbox.calls()).toBe(0);
  });

  it('upstream 400s are InvalidInputErrors with the field and the cleaned upstream reason', async () => {
    const agent = stack.sandbox.listEndpoints(KEY).find((e) => e.type === 'agent');
    expect(await update({ id: agent?.id, description: 'x' })).toEqual({
      __typename: 'InvalidInputError',
      code: 'INVALID_INPUT',
      field: 'id',
      message: `The endpoint ${agent?.id} is an agent endpoint, and agent endpoints are read-only: only cloud endpoints can be changed or deleted through the API.`,
    });
    const badPolicy = await create({ url: 'https://p.example.com', trafficPolicy: 'on_request: []' });
    expect(badPolicy).toMatchObject({ __typename: 'InvalidInputError', field: 'trafficPolicy' });
    expect(String(badPolicy.message)).toMatch(
      /^The provided cloud endpoint traffic policy configuration is invalid: .*unknown phase on_request/,
    );
    const taken = await create({ url: 'https://p2.example.com', trafficPolicy: POLICY });
    const url = String((taken.endpoint as { url: string }).url);
    expect(await create({ url, trafficPolicy: POLICY })).toMatchObject({
      __typename: 'InvalidInputError',
      field: 'url',
    });
    const badBinding = await create({
      url: 'https://p3.example.com',
      trafficPolicy: POLICY,
      bindings: ['nope'],
    });
    expect(badBinding).toMatchObject({ __typename: 'InvalidInputError', field: 'bindings' });
  });

  it('404 is a NotFoundError for update and delete', async () => {
    const id = newId('ep');
    expect(await update({ id, description: 'x' })).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      id,
      message: `No endpoint ${id}.`,
    });
    const { body } = await stack.gql(DELETE, { input: { id } });
    expect(body.errors).toBeUndefined();
    expect(body.data?.deleteEndpoint).toEqual({
      __typename: 'NotFoundError',
      code: 'NOT_FOUND',
      missing: id,
      message: `No endpoint ${id}.`,
    });
  });

  it('deleteEndpoint deletes; the same operation and later reads see it gone', async () => {
    const id = stack.sandbox.addEndpoint(KEY).id;
    await stack.gql(`{ endpoint(id: "${id}") { id } }`);
    stack.sandbox.resetCalls();
    const { body } = await stack.gql(
      `mutation($input: DeleteEndpointInput!) { deleteEndpoint(input: $input) { ... on DeleteEndpointPayload { id } } }`,
      { input: { id } },
    );
    expect(body.data?.deleteEndpoint).toEqual({ id });
    expect(upstreamOf(id)).toBeUndefined();
    const read = await stack.gql(`{ endpoint(id: "${id}") { id } }`);
    expect(read.body).toEqual({ data: { endpoint: null } });
    expect(stack.sandbox.calls('deleteEndpoint')).toBe(1);
    expect(stack.sandbox.calls('listEndpoints')).toBe(1);
  });

  it('writes are never retried; a write whose answer is lost has outcome UNKNOWN', async () => {
    const id = stack.sandbox.addEndpoint(KEY).id;
    stack.sandbox.inject('updateEndpoint', { kind: 'status', status: 503 });
    const refused = await stack.gql(UPDATE, { input: { id, description: 'x' } });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(refused.body.errors?.[0]?.extensions?.outcome).toBeUndefined();
    stack.sandbox.inject('createEndpoint', { kind: 'drop' });
    const lost = await stack.gql(CREATE, {
      input: { url: 'https://lost.example.com', trafficPolicy: POLICY },
    });
    expect(lost.body.errors?.[0]?.message).toBe(UNKNOWN);
    expect(lost.body.errors?.[0]?.extensions).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      outcome: 'UNKNOWN',
    });
    expect(stack.sandbox.calls('updateEndpoint')).toBe(1);
    expect(stack.sandbox.calls('createEndpoint')).toBe(1);
  });

  it('tenants are isolated: another key can neither see nor change this key’s endpoints', async () => {
    const id = stack.sandbox.addEndpoint(KEY, { description: 'mine' }).id;
    expect(
      await dataOf<Result>(
        (await stack.gql(UPDATE, { input: { id, description: 'theirs' } }, { key: OTHER_KEY })).body,
        'updateEndpoint',
      ),
    ).toMatchObject({
      __typename: 'NotFoundError',
    });
    expect(upstreamOf(id)?.description).toBe('mine');
    const theirs = await create({ url: 'https://theirs.example.com', trafficPolicy: POLICY }, OTHER_KEY);
    const theirId = String((theirs.endpoint as { id: string }).id);
    expect(upstreamOf(theirId)).toBeUndefined();
    expect(upstreamOf(theirId, OTHER_KEY)?.url).toBe('https://theirs.example.com');
  });
});

describe('the upstream reason a client may see', () => {
  it('is trimmed, without control characters, capped at 300 characters; anything but text is none', () => {
    expect(cleanedRefusal('  bad\u0007 policy\r\n\u001b[31m  ')).toBe('bad  policy [31m');
    const long = cleanedRefusal('x'.repeat(1000));
    expect(long).toHaveLength(300);
    expect(long?.endsWith('…')).toBe(true);
    expect(cleanedRefusal(' \n ')).toBeUndefined();
    expect(cleanedRefusal({ msg: 'x' })).toBeUndefined();
    expect(cleanedRefusal(undefined)).toBeUndefined();
  });
});
