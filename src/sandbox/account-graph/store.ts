// One account's agents and reservations, beside its tunnels and endpoints (state/store.ts holds
// this): the three lists newest first, the reservation an endpoint's host or host:port refers to,
// and what an agent's update meets (its metadata's `update`, one it was given since, or the
// stand-in's default).

import { NewestFirst } from '../state/newest-first';
import type {
  AccountGraphCollection,
  AgentUpdateState,
  UpstreamCredential,
  UpstreamReservedAddr,
  UpstreamReservedDomain,
  UpstreamTlsCertificate,
  UpstreamTunnelSession,
} from './types';

const UPDATE_STATES: ReadonlySet<string> = new Set([
  'available',
  'none',
  'disabled',
  'in-progress',
  'awaiting-restart',
]);

/** The `update` key of JSON metadata, when it names a state. */
function updateInMetadata(metadata: string | undefined): AgentUpdateState | undefined {
  if (metadata === undefined || !metadata.startsWith('{')) return undefined;
  try {
    const update: unknown = (JSON.parse(metadata) as Record<string, unknown>).update;
    return typeof update === 'string' && UPDATE_STATES.has(update) ? (update as AgentUpdateState) : undefined;
  } catch {
    return undefined;
  }
}

interface AccountGraphSeed {
  tunnelSessions: UpstreamTunnelSession[];
  reservedDomains: UpstreamReservedDomain[];
  reservedAddrs: UpstreamReservedAddr[];
  credentials: UpstreamCredential[];
  tlsCertificates: UpstreamTlsCertificate[];
}

export class AccountGraph {
  readonly sessions: NewestFirst<UpstreamTunnelSession>;
  private readonly domains: NewestFirst<UpstreamReservedDomain>;
  private readonly addrs: NewestFirst<UpstreamReservedAddr>;
  readonly credentials: NewestFirst<UpstreamCredential>;
  private readonly certificates: NewestFirst<UpstreamTlsCertificate>;
  private readonly domainByHost = new Map<string, string>();
  private readonly addrByHostport = new Map<string, string>();
  /** Updates given since the session started: what a later update meets. */
  private readonly updates = new Map<string, AgentUpdateState>();

  /** Holds the seed's items as they are (the caller copies them). */
  constructor(seed: AccountGraphSeed) {
    this.sessions = new NewestFirst(seed.tunnelSessions, 'tunnel session');
    this.domains = new NewestFirst(seed.reservedDomains, 'reserved domain');
    this.addrs = new NewestFirst(seed.reservedAddrs, 'reserved address');
    this.credentials = new NewestFirst(seed.credentials, 'credential');
    this.certificates = new NewestFirst(seed.tlsCertificates, 'TLS certificate');
    for (const d of this.domains.items) this.domainByHost.set(d.domain, d.id);
    for (const a of this.addrs.items) this.addrByHostport.set(a.addr, a.id);
  }

  /** The items of a list, newest first (the caller reads them, never changes them). */
  items(collection: AccountGraphCollection): readonly { readonly id: string }[] {
    return this.list(collection).items;
  }

  item(collection: AccountGraphCollection, id: string): { readonly id: string } | undefined {
    return this.list(collection).get(id);
  }

  private list(collection: AccountGraphCollection): NewestFirst<{ readonly id: string }> {
    const lists = {
      tunnel_sessions: this.sessions,
      reserved_domains: this.domains,
      reserved_addrs: this.addrs,
      credentials: this.credentials,
      tls_certificates: this.certificates,
    } as const;
    return lists[collection];
  }

  /**
   * The reserved domain (rd_…) on this host, if any: the host's own reservation, else the nearest
   * wildcard one above it (`*.example.com` covers `a.example.com` and `a.b.example.com`).
   */
  domainFor(host: string): string | undefined {
    const exact = this.domainByHost.get(host);
    if (exact !== undefined) return exact;
    for (let dot = host.indexOf('.'); dot !== -1; dot = host.indexOf('.', dot + 1)) {
      const wildcard = this.domainByHost.get(`*${host.slice(dot)}`);
      if (wildcard !== undefined) return wildcard;
    }
    return undefined;
  }

  /** The reserved address (ra_…) on this host:port, if any. */
  addrFor(hostport: string): string | undefined {
    return this.addrByHostport.get(hostport);
  }

  /** What an update of `session` meets now; `fallback` when nothing names a state. */
  updateState(session: UpstreamTunnelSession, fallback: AgentUpdateState): AgentUpdateState {
    return this.updates.get(session.id) ?? updateInMetadata(session.metadata) ?? fallback;
  }

  setUpdateState(sessionId: string, state: AgentUpdateState): void {
    this.updates.set(sessionId, state);
  }

  /** The agent goes offline (stop, or the old id of a restart); false when it was not online. */
  removeSession(id: string): boolean {
    this.updates.delete(id);
    return this.sessions.remove(id);
  }

  snapshot(): AccountGraphSeed {
    return {
      tunnelSessions: [...this.sessions.items],
      reservedDomains: [...this.domains.items],
      reservedAddrs: [...this.addrs.items],
      credentials: [...this.credentials.items],
      tlsCertificates: [...this.certificates.items],
    };
  }
}
