// Tunnel credentials (the authtokens agents use): one as the upstream sends it, read into the
// domain's shape, and the kind's descriptor (a paged, filterable list; a GET by id). Its `token` is
// never read: the upstream shows it only on creation, and it must reach no client, log or cache.
import { CREDENTIAL_ID } from '../id-kinds';
import { badResponse, filled, object, present, requiredId } from '../json';
import { GET_ROUTE, LIST_ROUTE, LISTED_BY_IDS, type Resource } from '../resource';

export interface Credential {
  readonly id: string;
  readonly description?: string;
  readonly metadata?: string;
  readonly createdAt: string;
  readonly acl: readonly string[];
  readonly ownerId?: string;
}

function parseCredential(v: unknown): Credential {
  const where = 'credential';
  const o = object(v, where);
  const acl = o.acl ?? [];
  if (!Array.isArray(acl) || acl.some((rule) => typeof rule !== 'string'))
    throw badResponse(`${where}.acl is not a list of strings`);
  return {
    id: requiredId(o, 'id', where, CREDENTIAL_ID),
    description: present(o, 'description', where),
    metadata: present(o, 'metadata', where),
    createdAt: filled(o, 'created_at', where),
    acl: acl as string[],
    ownerId: present(o, 'owner_id', where),
  };
}

export const CREDENTIAL = {
  ...CREDENTIAL_ID,
  typeName: 'Credential',
  path: ['credentials'],
  routes: { listCredentials: LIST_ROUTE, getCredential: GET_ROUTE },
  list: 'listCredentials',
  get: 'getCredential',
  parse: parseCredential,
  ...LISTED_BY_IDS,
} as const satisfies Resource<Credential>;
