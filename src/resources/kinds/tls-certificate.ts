// TLS certificates on the account (uploaded, or managed by the provider for a reserved domain): one
// as the upstream sends it, read into the domain's shape, and the kind's descriptor (a paged,
// filterable list; a GET by id). Its `certificate_pem` (tens of KB) is never read: the schema does
// not expose it, and it stays out of every cache and snapshot.
import { TLS_CERTIFICATE_ID } from '../id-kinds';
import { badResponse, filled, type Json, object, present, requiredId } from '../json';
import { GET_ROUTE, LIST_ROUTE, LISTED_BY_IDS, type Resource } from '../resource';

export interface TlsCertificate {
  readonly id: string;
  readonly description?: string;
  readonly metadata?: string;
  readonly createdAt: string;
  readonly subjectCommonName: string;
  readonly dnsNames: readonly string[];
  readonly issuerCommonName?: string;
  readonly notBefore: string;
  readonly notAfter: string;
  readonly serialNumber?: string;
  readonly privateKeyType?: string;
}

function dnsNames(o: Json, where: string): string[] {
  const names = o.subject_alternative_names;
  if (names === undefined || names === null) return [];
  const dns = object(names, `${where}.subject_alternative_names`).dns_names ?? [];
  if (!Array.isArray(dns) || dns.some((name) => typeof name !== 'string'))
    throw badResponse(`${where}.subject_alternative_names.dns_names is not a list of strings`);
  return dns as string[];
}

function parseTlsCertificate(v: unknown): TlsCertificate {
  const where = 'tls_certificate';
  const o = object(v, where);
  return {
    id: requiredId(o, 'id', where, TLS_CERTIFICATE_ID),
    description: present(o, 'description', where),
    metadata: present(o, 'metadata', where),
    createdAt: filled(o, 'created_at', where),
    subjectCommonName: filled(o, 'subject_common_name', where),
    dnsNames: dnsNames(o, where),
    issuerCommonName: present(o, 'issuer_common_name', where),
    notBefore: filled(o, 'not_before', where),
    notAfter: filled(o, 'not_after', where),
    serialNumber: present(o, 'serial_number', where),
    privateKeyType: present(o, 'private_key_type', where),
  };
}

export const TLS_CERTIFICATE = {
  ...TLS_CERTIFICATE_ID,
  typeName: 'TlsCertificate',
  path: ['tls_certificates'],
  routes: { listTlsCertificates: LIST_ROUTE, getTlsCertificate: GET_ROUTE },
  list: 'listTlsCertificates',
  get: 'getTlsCertificate',
  parse: parseTlsCertificate,
  ...LISTED_BY_IDS,
} as const satisfies Resource<TlsCertificate>;
