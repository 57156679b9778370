// Reservations: the ReservedDomain and ReservedAddress nodes, their connections and by-id fields,
// and the endpoints on each (ReservedDomain.endpoints, ReservedAddress.endpoints, filtered upstream).
import {
  RESERVED_ADDRESS,
  RESERVED_DOMAIN,
  type ReservedAddress,
  type ReservedDomain,
  TLS_CERTIFICATE,
} from '../../resources';
import { isNodeOf } from '../relay/node-ids';
import { refTo } from '../relay/refs';
import { endpointsReferring, listedNodeRef, listedQueries } from './listed-nodes';

const ReservedDomainNode = listedNodeRef<ReservedDomain>(RESERVED_DOMAIN);
const ReservedAddressNode = listedNodeRef<ReservedAddress>(RESERVED_ADDRESS);

ReservedDomainNode.implement({
  description: 'A domain reserved on the account (rd_…).',
  isTypeOf: isNodeOf(RESERVED_DOMAIN),
  fields: (t) => ({
    domain: t.exposeString('domain', { description: 'The hostname, e.g. app.example.com.' }),
    region: t.exposeString('region', {
      nullable: true,
      description: 'The region it is reserved in; null for a global one.',
    }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    metadata: t.exposeString('metadata', { nullable: true, description: 'User metadata.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was reserved.' }),
    cnameTarget: t.exposeString('cnameTarget', {
      nullable: true,
      description: 'The DNS target to CNAME a custom domain to; null for ngrok-managed domains.',
    }),
    certificate: t.field({
      ...refTo([TLS_CERTIFICATE], (domain) => domain.certificate),
      description: 'The TLS certificate (cert_…) serving it, when one is attached.',
    }),
  }),
});

ReservedAddressNode.implement({
  description: 'A TCP address reserved on the account (ra_…).',
  isTypeOf: isNodeOf(RESERVED_ADDRESS),
  fields: (t) => ({
    addr: t.exposeString('addr', { description: 'hostname:port, e.g. 1.tcp.ngrok.io:20000.' }),
    region: t.exposeString('region', { nullable: true, description: 'The region it is reserved in.' }),
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    metadata: t.exposeString('metadata', { nullable: true, description: 'User metadata.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was reserved.' }),
  }),
});

listedQueries(ReservedDomainNode, {
  resource: RESERVED_DOMAIN,
  list: 'reservedDomains',
  listDescription: 'Reserved domains, newest first. Forward paging: first (1..100, default 20) and after.',
  oneDescription: 'Null when the account has no reserved domain with this id.',
  connection: 'A page of reserved domains.',
  edge: 'One reserved domain of a page, with its cursor.',
});

listedQueries(ReservedAddressNode, {
  resource: RESERVED_ADDRESS,
  list: 'reservedAddresses',
  listDescription:
    'Reserved TCP addresses, newest first. Forward paging: first (1..100, default 20) and after.',
  oneDescription: 'Null when the account has no reserved address with this id.',
  connection: 'A page of reserved TCP addresses.',
  edge: 'One reserved address of a page, with its cursor.',
});

endpointsReferring(
  ReservedDomainNode,
  'domain.id',
  'The endpoints on this domain, newest first (one upstream call per page: the endpoints list filtered by\nthis reservation). Forward paging: first (1..100, default 20) and after.',
);
endpointsReferring(
  ReservedAddressNode,
  'tcp_addr.id',
  'The endpoints on this address, newest first (one upstream call per page: the endpoints list filtered\nby this reservation). Forward paging: first (1..100, default 20) and after.',
);
