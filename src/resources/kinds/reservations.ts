// Reservations: a reserved domain and a reserved TCP address as the upstream sends them, read into
// the domain's shape, and the two kinds' descriptors (paged, filterable lists; a GET by id).
import { RESERVED_ADDRESS_ID, RESERVED_DOMAIN_ID } from '../id-kinds';
import { filled, type Json, object, optionalRef, present, type Ref, requiredId } from '../json';
import { GET_ROUTE, type IdKindSpec, LIST_ROUTE, LISTED_BY_IDS, type Resource } from '../resource';

/** What a reserved domain and a reserved TCP address share. */
interface Reservation {
  readonly id: string;
  readonly region?: string;
  readonly description?: string;
  readonly metadata?: string;
  readonly createdAt: string;
}

export interface ReservedDomain extends Reservation {
  readonly domain: string;
  readonly cnameTarget?: string;
  readonly certificate?: Ref;
}

export interface ReservedAddress extends Reservation {
  /** host:port. */
  readonly addr: string;
}

/** The fields every reservation has, from its object `o` (found at `where`). */
const reservation = (o: Json, where: string, kind: IdKindSpec): Reservation => ({
  id: requiredId(o, 'id', where, kind),
  region: present(o, 'region', where),
  description: present(o, 'description', where),
  metadata: present(o, 'metadata', where),
  createdAt: filled(o, 'created_at', where),
});

function parseReservedDomain(v: unknown): ReservedDomain {
  const where = 'reserved_domain';
  const o = object(v, where);
  return {
    ...reservation(o, where, RESERVED_DOMAIN_ID),
    domain: filled(o, 'domain', where),
    cnameTarget: present(o, 'cname_target', where),
    certificate: optionalRef(o.certificate, `${where}.certificate`, 'any'),
  };
}

function parseReservedAddress(v: unknown): ReservedAddress {
  const where = 'reserved_addr';
  const o = object(v, where);
  return { ...reservation(o, where, RESERVED_ADDRESS_ID), addr: filled(o, 'addr', where) };
}

export const RESERVED_DOMAIN = {
  ...RESERVED_DOMAIN_ID,
  typeName: 'ReservedDomain',
  path: ['reserved_domains'],
  routes: {
    listReservedDomains: LIST_ROUTE,
    getReservedDomain: GET_ROUTE,
  },
  list: 'listReservedDomains',
  get: 'getReservedDomain',
  parse: parseReservedDomain,
  ...LISTED_BY_IDS,
} as const satisfies Resource<ReservedDomain>;

export const RESERVED_ADDRESS = {
  ...RESERVED_ADDRESS_ID,
  typeName: 'ReservedAddress',
  path: ['reserved_addrs'],
  routes: {
    listReservedAddrs: LIST_ROUTE,
    getReservedAddr: GET_ROUTE,
  },
  list: 'listReservedAddrs',
  get: 'getReservedAddr',
  parse: parseReservedAddress,
  ...LISTED_BY_IDS,
} as const satisfies Resource<ReservedAddress>;
