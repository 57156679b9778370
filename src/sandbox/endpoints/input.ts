// The bodies of POST and PATCH /endpoints, decoded as a Go handler would before it acts: JSON
// object, unknown fields (214), field types (215). `null` counts as not sent. What the values
// mean (URL, bindings, Traffic Policy) is checked later, against the account.
import { apiError, invalidValue } from '../api/errors';
import { parseJsonObject } from '../api/validate';

export interface EndpointFields {
  url?: string;
  traffic_policy?: string;
  description?: string;
  metadata?: string;
  bindings?: string[];
  pooling_enabled?: boolean;
}

export interface CreateFields extends EndpointFields {
  type?: string;
}

const UPDATE_FIELDS = ['url', 'traffic_policy', 'description', 'metadata', 'bindings', 'pooling_enabled'];
const CREATE_FIELDS = [
  'url',
  'type',
  'traffic_policy',
  'description',
  'metadata',
  'bindings',
  'pooling_enabled',
];
const STRING_FIELDS = ['url', 'type', 'traffic_policy', 'description', 'metadata'] as const;
const MAX_DESCRIPTION = 255;
const MAX_METADATA_BYTES = 4096;

function readFields(input: Record<string, unknown>, supported: readonly string[]): CreateFields {
  const unknown = Object.keys(input).find((key) => !supported.includes(key));
  if (unknown !== undefined) {
    throw apiError('ERR_NGROK_214', { NAME: unknown, SUPPORTED: supported.join(', ') });
  }
  const fields: CreateFields = {};
  for (const name of STRING_FIELDS) {
    const value = input[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw invalidValue(name, 'expected a string');
    fields[name] = value;
  }
  const { bindings, pooling_enabled: pooling } = input;
  if (bindings !== undefined && bindings !== null) {
    if (!Array.isArray(bindings) || bindings.some((item) => typeof item !== 'string')) {
      throw invalidValue('bindings', 'expected a list of strings');
    }
    fields.bindings = bindings as string[];
  }
  if (pooling !== undefined && pooling !== null) {
    if (typeof pooling !== 'boolean') throw invalidValue('pooling_enabled', 'expected true or false');
    fields.pooling_enabled = pooling;
  }
  if ((fields.description?.length ?? 0) > MAX_DESCRIPTION) {
    throw invalidValue('description', `it is longer than ${MAX_DESCRIPTION} characters`);
  }
  if (Buffer.byteLength(fields.metadata ?? '') > MAX_METADATA_BYTES) {
    throw invalidValue('metadata', `it is longer than ${MAX_METADATA_BYTES} bytes`);
  }
  return fields;
}

/** POST /endpoints: `url`, `type` and `traffic_policy` are checked for presence by the create itself. */
export function parseCreateBody(contentType: string | undefined, body: Buffer): CreateFields {
  return readFields(parseJsonObject(contentType, body), CREATE_FIELDS);
}

/** PATCH /endpoints/{id}: fields not sent stay as they are; a body that sends none is refused. */
export function parseUpdateBody(contentType: string | undefined, body: Buffer): EndpointFields {
  const fields = readFields(parseJsonObject(contentType, body), UPDATE_FIELDS);
  if (Object.keys(fields).length === 0) throw apiError('ERR_NGROK_18004');
  return fields;
}
