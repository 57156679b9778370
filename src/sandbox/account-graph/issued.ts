// What the account issued that its agents and domains refer to: the credential (cr_…) of each agent
// and the TLS certificate (cert_…) of each reserved domain that names one, derived from the id alone
// (the same sessions and domains always give the same credentials and certificates), so every such
// Ref is a listed item.
import { idTime } from '../state/ids';
import { Rng } from '../state/rng';
import { hash } from './data';
import type {
  UpstreamCredential,
  UpstreamReservedDomain,
  UpstreamTlsCertificate,
  UpstreamTunnelSession,
} from './types';

const DESCRIPTIONS = ['ci runners', 'laptop of ada', 'staging cluster', 'kiosk fleet'] as const;
const DAY = 86_400_000;

const rfc3339 = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
const newestFirst = <T extends { id: string }>(items: Iterable<T>): T[] =>
  [...items].sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));

/** The credential with this id, derived from it. */
export function credentialOf(id: string): UpstreamCredential {
  const rng = new Rng(hash(id));
  const description = rng.chance(0.6) ? rng.pick(DESCRIPTIONS) : undefined;
  return {
    id,
    created_at: rfc3339(idTime(id) ?? new Date(0)),
    ...(description === undefined ? {} : { description }),
    acl: rng.chance(0.4) ? ['bind:*.example.com'] : [],
    owner_id: `usr_${id.slice(3)}`,
  };
}

/** One credential per distinct `credential` of `sessions`, newest first. */
export function credentialsFor(sessions: readonly UpstreamTunnelSession[]): UpstreamCredential[] {
  const ids = new Set(sessions.flatMap((s) => (s.credential ? [s.credential.id] : [])));
  return newestFirst([...ids].map(credentialOf));
}

/** A PEM-shaped text standing for the certificate (never read by the gateway). */
const pemOf = (id: string): string =>
  `-----BEGIN CERTIFICATE-----\n${Buffer.from(`stand-in certificate ${id}`).toString('base64')}\n-----END CERTIFICATE-----\n`;

/** The certificate `id` of `domain`, valid 90 days from its creation, or until `notAfter`. */
function certificateOf(id: string, domain: string, notAfter?: Date): UpstreamTlsCertificate {
  const rng = new Rng(hash(id));
  const created = idTime(id) ?? new Date(0);
  return {
    id,
    created_at: rfc3339(created),
    certificate_pem: pemOf(id),
    subject_common_name: domain,
    subject_alternative_names: { dns_names: [domain], ips: [] },
    issued_at: rfc3339(created),
    not_before: rfc3339(created),
    not_after: rfc3339(notAfter ?? new Date(created.getTime() + 90 * DAY)),
    key_usages: ['digital_signature'],
    extended_key_usages: ['server_auth'],
    private_key_type: rng.chance(0.5) ? 'ecdsa' : 'rsa',
    issuer_common_name: rng.pick(['R10', 'R11', 'E5']),
    serial_number: rng.hex(16),
  };
}

/**
 * One certificate per distinct `certificate` of `domains`, newest first. With `now`, the newest expires
 * in 20 days and the others in 60 days or more (at day precision, so the same day gives the same data).
 */
export function certificatesFor(
  domains: readonly UpstreamReservedDomain[],
  now?: Date,
): UpstreamTlsCertificate[] {
  const day = now === undefined ? undefined : Math.floor(now.getTime() / DAY) * DAY;
  const byId = new Map<string, string>();
  for (const d of domains)
    if (d.certificate && !byId.has(d.certificate.id)) byId.set(d.certificate.id, d.domain);
  const ids = [...byId.keys()].sort().reverse();
  return ids.map((id, i) =>
    certificateOf(
      id,
      byId.get(id) ?? '',
      day === undefined ? undefined : new Date(day + (i === 0 ? 20 : 60 + i) * DAY),
    ),
  );
}
