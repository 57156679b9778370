// TLS certificates: the TlsCertificate node, `tlsCertificates` and `tlsCertificate(id)`. Its PEM is
// never read from the upstream: it is in no answer, cache or snapshot.
import { TLS_CERTIFICATE, type TlsCertificate } from '../../resources';
import { isNodeOf } from '../relay/node-ids';
import { listedNodeRef, listedQueries } from './listed-nodes';

const TlsCertificateNode = listedNodeRef<TlsCertificate>(TLS_CERTIFICATE);

TlsCertificateNode.implement({
  description: 'A TLS certificate (cert_) on the account, uploaded or managed by the provider.',
  isTypeOf: isNodeOf(TLS_CERTIFICATE),
  fields: (t) => ({
    description: t.exposeString('description', { nullable: true, description: 'Free text.' }),
    metadata: t.exposeString('metadata', { nullable: true, description: 'User metadata.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was added.' }),
    subjectCommonName: t.exposeString('subjectCommonName', { description: 'The subject common name.' }),
    dnsNames: t.exposeStringList('dnsNames', {
      description: 'The DNS names it covers (its subject alternative names), as the upstream sends them.',
    }),
    issuerCommonName: t.exposeString('issuerCommonName', { nullable: true, description: 'Who issued it.' }),
    notBefore: t.expose('notBefore', { type: 'DateTime', description: 'Valid from.' }),
    notAfter: t.expose('notAfter', { type: 'DateTime', description: 'Valid until: when it expires.' }),
    serialNumber: t.exposeString('serialNumber', { nullable: true, description: 'Its serial number.' }),
    privateKeyType: t.exposeString('privateKeyType', {
      nullable: true,
      description: 'rsa or ecdsa, as the upstream sends it.',
    }),
  }),
});

listedQueries(TlsCertificateNode, {
  resource: TLS_CERTIFICATE,
  list: 'tlsCertificates',
  listDescription: 'TLS certificates, newest first. Forward paging: first (1..100, default 20) and after.',
  oneDescription: 'Null when the account has no TLS certificate with this id.',
  connection: 'A page of TLS certificates.',
  edge: 'One TLS certificate of a page, with its cursor.',
});
