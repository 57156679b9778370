import { ID_PATTERN } from '../state/ids';
import { BACKEND_PREFIXES, isBackendPrefix } from '../state/resources';
import { apiError } from './api-errors';

// Request validation, in the order a Go handler would fail: query, then content type, syntax,
// unknown fields, field types, required fields, id shapes. Each failure is one catalogued code.

export const MAX_PAGE_SIZE = 100;
const BODY_FIELDS = ['backend_id', 'enabled'];

export interface ListQuery {
  limit: number;
  beforeId?: string;
}

/** What a list accepts: `before_id` of its own id prefix, `limit`, and its own extra parameters. */
export interface ListSpec {
  prefix: string;
  extra?: readonly string[];
  /** Extra parameters that may be given more than once. */
  repeatable?: readonly string[];
}

const TUNNEL_LIST: ListSpec = { prefix: 'tn' };

export interface ModuleInput {
  backendId: string;
  enabled: boolean;
}

function checkParams(
  query: URLSearchParams,
  supported: readonly string[],
  repeatable: readonly string[] = [],
): void {
  const names = [...new Set(query.keys())];
  const unknown = names.filter((name) => !supported.includes(name));
  if (unknown.length > 0) {
    throw apiError('ERR_NGROK_231', {
      UNKNOWN: unknown.join(', '),
      SUPPORTED: supported.join(', ') || 'none',
    });
  }
  for (const name of names) {
    const values = query.getAll(name);
    if (values.length > 1 && !repeatable.includes(name)) {
      throw apiError('ERR_NGROK_232', { NAME: name, COUNT: values.length, VALUES: values.join(', ') });
    }
  }
}

/** Operations without query parameters still reject any they are given. */
export function checkNoQuery(query: URLSearchParams): void {
  checkParams(query, []);
}

/**
 * `limit` that is an integer outside 1..100 → ERR_NGROK_233 (out of range); anything that is not
 * an integer at all (`abc`, `1.5`, empty) → ERR_NGROK_244 (not a number). `before_id` must be an id
 * of the list's prefix (tn_ for tunnels).
 */
export function parseListQuery(query: URLSearchParams, spec: ListSpec = TUNNEL_LIST): ListQuery {
  checkParams(query, ['before_id', 'limit', ...(spec.extra ?? [])], spec.repeatable);
  const rawLimit = query.get('limit');
  let limit = MAX_PAGE_SIZE;
  if (rawLimit !== null) {
    if (!/^-?\d+$/.test(rawLimit)) throw apiError('ERR_NGROK_244', { VALUE: rawLimit });
    limit = Number(rawLimit);
    if (limit < 1 || limit > MAX_PAGE_SIZE) throw apiError('ERR_NGROK_233', { VALUE: rawLimit });
  }
  const beforeId = query.get('before_id');
  if (beforeId === null) return { limit };
  if (ID_PATTERN.exec(beforeId)?.[1] !== spec.prefix)
    throw apiError('ERR_NGROK_227', { VALUE: beforeId, PREFIX: spec.prefix });
  return { limit, beforeId };
}

/** GET and DELETE take no body; an empty one (Content-Length: 0) is fine. */
export function checkNoBody(method: string, body: Buffer): void {
  if (body.length > 0) throw apiError('ERR_NGROK_211', { METHOD: method });
}

/** A JSON object body, or the 216/210/213 a Go handler answers before it looks at a field. */
export function parseJsonObject(contentType: string | undefined, body: Buffer): Record<string, unknown> {
  if (contentType === undefined || contentType.trim() === '') throw apiError('ERR_NGROK_216');
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') throw apiError('ERR_NGROK_210', { CTYPE: contentType });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw apiError('ERR_NGROK_213', { CTYPE: 'application/json' });
  }
  // Arrays, strings and null do not decode into the request object either.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw apiError('ERR_NGROK_213', { CTYPE: 'application/json' });
  }
  return parsed as Record<string, unknown>;
}

/** The flat body of PUT …/backend: `{"backend_id": "bkd…", "enabled"?: boolean}`. */
export function parseModuleInput(contentType: string | undefined, body: Buffer): ModuleInput {
  const input = parseJsonObject(contentType, body);
  const unknown = Object.keys(input).find((key) => !BODY_FIELDS.includes(key));
  if (unknown !== undefined) {
    throw apiError('ERR_NGROK_214', { NAME: unknown, SUPPORTED: BODY_FIELDS.join(', ') });
  }
  const { backend_id: backendId, enabled } = input;
  if (backendId !== undefined && backendId !== null && typeof backendId !== 'string') {
    throw apiError('ERR_NGROK_215', { NAME: 'backend_id' });
  }
  if (enabled !== undefined && typeof enabled !== 'boolean')
    throw apiError('ERR_NGROK_215', { NAME: 'enabled' });
  if (backendId === undefined || backendId === null || backendId === '') {
    throw apiError('ERR_NGROK_1405', { PARAM: 'backend_id' });
  }
  const prefix = ID_PATTERN.exec(backendId)?.[1];
  if (prefix === undefined) throw apiError('ERR_NGROK_227', { VALUE: backendId, PREFIX: 'bkd' });
  if (!isBackendPrefix(prefix)) {
    throw apiError('ERR_NGROK_243', { VALUE: backendId, PREFIXES: BACKEND_PREFIXES.join(', ') });
  }
  return { backendId, enabled: enabled ?? true };
}
