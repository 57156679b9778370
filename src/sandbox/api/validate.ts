// Request validation shared by every operation, in the order a Go handler would fail: query, then
// content type and syntax (each room checks its own fields after). Each failure is one catalogued code.
import { ID_PATTERN } from '../state/ids';
import { apiError } from './errors';

const MAX_PAGE_SIZE = 100;

interface ListQuery {
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
