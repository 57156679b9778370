// The account-graph operations: GET /tunnel_sessions, /reserved_domains and /reserved_addrs (paged
// like every list, filtered before paging), GET of one item, and the agent commands. Bodies carry
// the item's fields as held, its `uri` and Ref uris derived from ids, optional fields left out.

import { apiError, notFound } from '../api/errors';
import type { OperationRequest, Outcome } from '../api/operation-request';
import { ACCOUNT_GRAPH_LISTS, type AccountGraphRoute } from '../api/routes';
import { checkNoBody, checkNoQuery, parseJsonObject, parseListQuery } from '../api/validate';
import { filterParam } from '../filter';
import { pageOf, presentList } from '../state/paging';
import { ref, resourceUri } from '../state/resources';
import type { AccountStore } from '../state/store';
import { commandAgent } from './agent-commands';
import type { AccountGraphCollection } from './types';

/** An operation on an account-graph route. */
type AccountGraphRequest = Omit<OperationRequest, 'match'> & { match: AccountGraphRoute };

/** Each list's list-valued fields (a filter cannot use them). */
const LIST_FIELDS: Readonly<Record<AccountGraphCollection, ReadonlySet<string>>> = {
  tunnel_sessions: new Set(),
  reserved_domains: new Set(),
  reserved_addrs: new Set(),
  credentials: new Set(['acl']),
  tls_certificates: new Set(['key_usages', 'extended_key_usages']),
};
/** The only field a command's body may carry (the provider's OpenAPI names it; `{}` is usual). */
const COMMAND_FIELDS = ['id'];

const isRef = (value: unknown): value is { id: string; uri: string } =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';

/** The provider's field order per list; fields a seed adds beyond these follow them. */
const FIELD_ORDER: Readonly<Record<AccountGraphCollection, readonly string[]>> = {
  tunnel_sessions: [
    'agent_version',
    'credential',
    'ip',
    'metadata',
    'os',
    'region',
    'started_at',
    'transport',
  ],
  reserved_domains: [
    'created_at',
    'description',
    'metadata',
    'domain',
    'region',
    'cname_target',
    'certificate',
  ],
  reserved_addrs: ['created_at', 'description', 'metadata', 'addr', 'region'],
  credentials: ['created_at', 'description', 'metadata', 'token', 'acl', 'owner_id'],
  tls_certificates: [
    'created_at',
    'description',
    'metadata',
    'certificate_pem',
    'subject_common_name',
    'subject_alternative_names',
    'issued_at',
    'not_before',
    'not_after',
    'key_usages',
    'extended_key_usages',
    'private_key_type',
    'issuer_common_name',
    'serial_number',
  ],
};

/** One item as the API writes it: id, uri, then its fields in the API's order, Ref uris derived from ids. */
function presentItem(
  base: string,
  collection: AccountGraphCollection,
  item: { readonly id: string },
): Record<string, unknown> {
  const fields = item as unknown as Record<string, unknown>;
  const known = FIELD_ORDER[collection];
  const names = [...known, ...Object.keys(fields).filter((n) => n !== 'id' && !known.includes(n))];
  const out: Record<string, unknown> = { id: item.id, uri: resourceUri(base, item.id) };
  for (const name of names) {
    const value = fields[name];
    if (value !== undefined && value !== null) out[name] = isRef(value) ? ref(base, value) : value;
  }
  return out;
}

/** Every item of a list as GET serves it, newest first (all pages). */
export function allItems(account: AccountStore, collection: AccountGraphCollection, base: string) {
  return account.graph.items(collection).map((item) => presentItem(base, collection, item));
}

function list(request: AccountGraphRequest, collection: AccountGraphCollection): Outcome {
  const { query, base } = request;
  const { limit, beforeId } = parseListQuery(query, {
    prefix: ACCOUNT_GRAPH_LISTS[collection].prefix,
    extra: ['filter'],
  });
  checkNoBody(request.method, request.body);
  const predicate = filterParam(query, LIST_FIELDS[collection]);
  const items = allItems(request.account, collection, base).filter((item) => predicate?.(item) ?? true);
  const page = pageOf(items as ({ id: string } & Record<string, unknown>)[], limit, beforeId);
  return {
    status: 200,
    json: presentList(base, collection, page.items, {
      limit,
      hasMore: page.hasMore,
      lastId: page.items.at(-1)?.id,
      carried: [...query].filter(([name]) => name === 'filter'),
    }),
  };
}

export function runAccountGraphOperation(request: AccountGraphRequest): Outcome {
  const { match, account } = request;
  if ('collection' in match && !('id' in match)) return list(request, match.collection);
  checkNoQuery(request.query);
  if ('collection' in match) {
    checkNoBody(request.method, request.body);
    const item = account.graph.item(match.collection, match.id);
    if (item === undefined) throw notFound();
    return { status: 200, json: presentItem(request.base, match.collection, item) };
  }
  // Body errors come before lookups: the request is decoded before the handler runs.
  const body = parseJsonObject(request.contentType, request.body);
  const unknown = Object.keys(body).find((key) => !COMMAND_FIELDS.includes(key));
  if (unknown !== undefined) throw apiError('ERR_NGROK_214', { NAME: unknown, SUPPORTED: 'id' });
  commandAgent(account, match.name, match.id, request.agentUpdate);
  return { status: 204 };
}
