// The account graph as the upstream sends it, read into the domain's shape: a tunnel session (an
// online agent), a reserved domain, a reserved TCP address. Fields that do not apply arrive absent or
// empty (""): both read as undefined.
import {
  badResponse,
  type Json,
  object,
  optionalRef,
  optionalString,
  type Ref,
  requiredId,
  requiredString,
} from './fields';

export interface TunnelSession {
  readonly id: string;
  readonly agentVersion?: string;
  readonly credential?: Ref;
  readonly ip?: string;
  readonly metadata?: string;
  readonly os?: string;
  readonly region?: string;
  readonly startedAt: string;
  /** ngrok/v2 or ssh, as sent. */
  readonly transport?: string;
}

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

/** An optional string where "" means "does not apply". */
const present = (o: Json, key: string, where: string): string | undefined =>
  optionalString(o, key, where) || undefined;

/** A required string that must not be empty. */
function filled(o: Json, key: string, where: string): string {
  const value = requiredString(o, key, where);
  if (value === '') throw badResponse(`${where}.${key} is empty`);
  return value;
}

export function parseTunnelSession(v: unknown): TunnelSession {
  const where = 'tunnel_session';
  const o = object(v, where);
  return {
    id: requiredId(o, 'id', where, 'tunnelSession'),
    agentVersion: present(o, 'agent_version', where),
    credential: optionalRef(o.credential, `${where}.credential`, 'any'),
    ip: present(o, 'ip', where),
    metadata: present(o, 'metadata', where),
    os: present(o, 'os', where),
    region: present(o, 'region', where),
    startedAt: filled(o, 'started_at', where),
    transport: present(o, 'transport', where),
  };
}

/** The fields every reservation has, from its object `o` (found at `where`). */
const reservation = (o: Json, where: string, kind: 'reservedDomain' | 'reservedAddress'): Reservation => ({
  id: requiredId(o, 'id', where, kind),
  region: present(o, 'region', where),
  description: present(o, 'description', where),
  metadata: present(o, 'metadata', where),
  createdAt: filled(o, 'created_at', where),
});

export function parseReservedDomain(v: unknown): ReservedDomain {
  const where = 'reserved_domain';
  const o = object(v, where);
  return {
    ...reservation(o, where, 'reservedDomain'),
    domain: filled(o, 'domain', where),
    cnameTarget: present(o, 'cname_target', where),
    certificate: optionalRef(o.certificate, `${where}.certificate`, 'any'),
  };
}

export function parseReservedAddress(v: unknown): ReservedAddress {
  const where = 'reserved_addr';
  const o = object(v, where);
  return { ...reservation(o, where, 'reservedAddress'), addr: filled(o, 'addr', where) };
}
