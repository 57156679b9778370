// Creating, changing and deleting cloud endpoints, with the refusals the API makes, each a 400
// whose msg says what is wrong. POST/PATCH/DELETE and the programmatic API both come here.
import { agentEndpointReadOnly, apiError, invalidValue, notFound } from '../api/errors';
import { newId } from '../state/ids';
import type { AccountStore, EndpointRecord } from '../state/store';
import type { CloudEndpoint } from '../types';
import type { CreateFields, EndpointFields } from './input';
import { trafficPolicyProblem } from './traffic-policy';
import { checkEndpointUrl, describeUrl, type UrlParts } from './url';

const BINDINGS = ['public', 'internal', 'kubernetes'];

function checkedUrl(url: string): UrlParts {
  const check = checkEndpointUrl(url);
  if (!check.ok) throw apiError('ERR_NGROK_249', { URL: JSON.stringify(url), REASON: check.reason });
  return check.parts;
}

function checkedBindings(bindings: readonly string[], parts: UrlParts): string[] {
  if (bindings.length !== 1) {
    throw invalidValue('bindings', `an endpoint takes exactly one binding, got ${bindings.length}`);
  }
  const [binding = ''] = bindings;
  if (!BINDINGS.includes(binding)) {
    throw invalidValue('bindings', `${JSON.stringify(binding)} is not one of ${BINDINGS.join(', ')}`);
  }
  if (binding === 'internal' && !parts.internal) throw apiError('ERR_NGROK_9029', { URL: parts.url });
  if (binding === 'public' && parts.internal) {
    throw apiError('ERR_NGROK_249', {
      URL: parts.url,
      REASON: 'a URL ending in ".internal" takes the internal binding, not public',
    });
  }
  return [binding];
}

function checkPolicy(policy: string): void {
  if (policy.trim() === '')
    throw apiError('ERR_NGROK_18002', { REASON: 'a cloud endpoint needs a Traffic Policy' });
  const problem = trafficPolicyProblem(policy);
  if (problem !== undefined) throw apiError('ERR_NGROK_18002', { REASON: problem });
}

function urlOf(record: EndpointRecord): string {
  if (record.type === 'cloud') return record.endpoint.url;
  const url = record.tunnel.public_url ?? '';
  return describeUrl(url)?.url ?? url;
}

function checkUrlFree(account: AccountStore, url: string, self?: string): void {
  const owner = account.endpointRecords().find((record) => record.id !== self && urlOf(record) === url);
  if (owner !== undefined) throw apiError('ERR_NGROK_18009', { URL: url, ID: owner.id });
}

/** The stored form: optional strings that are empty are not kept (the API omits them). */
function withOptional(endpoint: CloudEndpoint, fields: EndpointFields): CloudEndpoint {
  const next: CloudEndpoint = { ...endpoint };
  for (const name of ['description', 'metadata'] as const) {
    const value = fields[name];
    if (value === undefined) continue;
    if (value === '') delete next[name];
    else next[name] = value;
  }
  if (fields.pooling_enabled !== undefined) next.pooling_enabled = fields.pooling_enabled;
  return next;
}

/** POST /endpoints. Order: required fields, type, URL, bindings, Traffic Policy, URL free. */
export function createCloudEndpoint(account: AccountStore, fields: CreateFields): CloudEndpoint {
  for (const name of ['url', 'type', 'traffic_policy'] as const) {
    if (fields[name] === undefined || fields[name] === '') throw apiError('ERR_NGROK_1405', { PARAM: name });
  }
  const { type = '', url = '', traffic_policy: policy = '' } = fields;
  if (type !== 'cloud') throw apiError('ERR_NGROK_248', { TYPE: JSON.stringify(type) });
  const parts = checkedUrl(url);
  const bindings = checkedBindings(fields.bindings ?? [parts.internal ? 'internal' : 'public'], parts);
  checkPolicy(policy);
  checkUrlFree(account, parts.url);
  const time = account.newEndpointTime();
  const stamp = time.toISOString();
  const endpoint = withOptional(
    {
      id: newId('ep', time),
      url: parts.url,
      created_at: stamp,
      updated_at: stamp,
      traffic_policy: policy,
      bindings,
    },
    fields,
  );
  endpoint.pooling_enabled = fields.pooling_enabled ?? false;
  account.putCloudEndpoint(endpoint);
  return structuredClone(endpoint);
}

/** A cloud endpoint to write to: 404 when unknown, 400 when it is an agent endpoint. */
function writable(account: AccountStore, id: string): CloudEndpoint {
  const record = account.getEndpoint(id);
  if (record === undefined) throw notFound();
  if (record.type === 'agent') throw agentEndpointReadOnly(id);
  return record.endpoint;
}

/** PATCH /endpoints/{id}: the sent fields over the stored ones, checked as a whole; updated_at moves. */
export function updateCloudEndpoint(
  account: AccountStore,
  id: string,
  fields: EndpointFields,
): CloudEndpoint {
  const current = writable(account, id);
  if (fields.url === '')
    throw apiError('ERR_NGROK_249', { URL: '""', REASON: 'a cloud endpoint needs a URL' });
  const parts = checkedUrl(fields.url ?? current.url);
  const bindings = checkedBindings(fields.bindings ?? current.bindings, parts);
  const policy = fields.traffic_policy ?? current.traffic_policy;
  checkPolicy(policy);
  checkUrlFree(account, parts.url, id);
  const next = withOptional(
    {
      ...current,
      url: parts.url,
      bindings,
      traffic_policy: policy,
      updated_at: account.tick().toISOString(),
    },
    fields,
  );
  account.putCloudEndpoint(next);
  return structuredClone(next);
}

/** DELETE /endpoints/{id}. */
export function deleteCloudEndpoint(account: AccountStore, id: string): void {
  writable(account, id);
  account.removeCloudEndpoint(id);
}

/** Moves updated_at and nothing else (tests and churn); undefined for an unknown or agent id. */
export function touchCloudEndpoint(account: AccountStore, id: string): CloudEndpoint | undefined {
  const current = account.getCloudEndpoint(id);
  if (current === undefined) return undefined;
  const next = { ...current, updated_at: account.tick().toISOString() };
  account.putCloudEndpoint(next);
  return structuredClone(next);
}
