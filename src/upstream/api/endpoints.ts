// The endpoints' writes: create (POST), update (PATCH) and delete, their refusals turned into domain
// errors (the reads are every kind's: items.ts).
import { NotFoundError, RefusedInputError, UpstreamError } from '../../errors';
import { ENDPOINT } from '../../resources';
import { routeCall } from '../../resources/routes';
import type { UpstreamRequest } from '../call/request';
import { writing } from './calls';

/** The fields a write may send; absent ones are not sent, "" clears description and metadata. */
export interface EndpointFields {
  readonly url?: string;
  readonly trafficPolicy?: string;
  readonly description?: string;
  readonly metadata?: string;
  readonly bindings?: readonly string[];
  readonly poolingEnabled?: boolean;
}

export type CloudEndpointInput = EndpointFields & { readonly url: string; readonly trafficPolicy: string };

/** The part of a write at fault: a field, or the endpoint itself (an agent endpoint is read-only). */
type EndpointInputKey = keyof EndpointFields | 'id';

const BODY_KEYS: Record<keyof EndpointFields, string> = {
  url: 'url',
  trafficPolicy: 'traffic_policy',
  description: 'description',
  metadata: 'metadata',
  bindings: 'bindings',
  poolingEnabled: 'pooling_enabled',
};

/** The upstream's body: only the fields given. */
function bodyOf(fields: EndpointFields): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(BODY_KEYS)) {
    const value = fields[key as keyof EndpointFields];
    if (value !== undefined) body[name] = value;
  }
  return body;
}

// Upstream validation codes that name the field at fault (see the upstream contract's table).
const INPUT_BY_ERROR_CODE: Readonly<Record<string, EndpointInputKey>> = {
  ERR_NGROK_248: 'id',
  ERR_NGROK_249: 'url',
  ERR_NGROK_18009: 'url',
  ERR_NGROK_9029: 'bindings',
  ERR_NGROK_18002: 'trafficPolicy',
};

/** ERR_NGROK_215 and 1405 name the request parameter in their message. */
function inputNamedIn(reason: string | undefined): EndpointInputKey | undefined {
  const match = reason && /request parameter (\w+)|parameter is missing: (\w+)/.exec(reason);
  const name = match ? (match[1] ?? match[2]) : undefined;
  return Object.entries(BODY_KEYS).find(([, body]) => body === name)?.[0] as EndpointInputKey | undefined;
}

function domainError(error: unknown, id?: string): unknown {
  if (!(error instanceof UpstreamError)) return error;
  if (error.status === 404 && id !== undefined) return new NotFoundError(`No endpoint ${id}.`, id);
  if (error.status === 400 && error.code === 'BAD_USER_INPUT') {
    const known = error.errorCode ? INPUT_BY_ERROR_CODE[error.errorCode] : undefined;
    return new RefusedInputError<EndpointInputKey>(known ?? inputNamedIn(error.refusal), error.refusal);
  }
  return error;
}

export const createEndpoint = writing(
  (input: CloudEndpointInput): UpstreamRequest => ({
    ...routeCall('createEndpoint'),
    body: { type: 'cloud', ...bodyOf(input) },
  }),
  ENDPOINT.parse,
  (error) => domainError(error),
);

export const updateEndpoint = writing(
  (id: string, fields: EndpointFields): UpstreamRequest => ({
    ...routeCall('updateEndpoint', { id }),
    body: bodyOf(fields),
  }),
  ENDPOINT.parse,
  domainError,
);

export const deleteEndpoint = writing(
  (id: string): UpstreamRequest => routeCall('deleteEndpoint', { id }),
  () => undefined,
  domainError,
);
