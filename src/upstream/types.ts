// What the upstream sends, validated at the edge: unknown fields are ignored, a missing or mistyped
// required field is UPSTREAM_BAD_RESPONSE. Optional fields come back as undefined, never null.
import { GatewayError } from '../errors';

export interface Ref {
  readonly id: string;
  readonly uri: string;
}

export interface Tunnel {
  readonly id: string;
  readonly publicUrl?: string;
  readonly startedAt: string;
  readonly metadata?: string;
  readonly proto?: string;
  readonly region: string;
  readonly tunnelSession: Ref;
  readonly endpoint?: Ref;
  readonly labels?: Readonly<Record<string, string>>;
  readonly backends?: readonly Ref[];
  readonly forwardsTo?: string;
}

export interface TunnelPage {
  readonly tunnels: readonly Tunnel[];
  readonly nextPageUri: string | null;
}

export interface BackendModule {
  readonly enabled: boolean;
  /** Undefined when the upstream says the route has no backend. */
  readonly backend?: Ref;
}

type Json = Record<string, unknown>;

const bad = (what: string): GatewayError =>
  new GatewayError('UPSTREAM_BAD_RESPONSE', `The upstream sent an unexpected response (${what}).`);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function object(v: unknown, where: string): Json {
  if (!isObject(v)) throw bad(`${where} is not an object`);
  return v;
}

function requiredString(o: Json, key: string, where: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw bad(`${where}.${key} is missing`);
  return v;
}

function optionalString(o: Json, key: string, where: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw bad(`${where}.${key} is not a string`);
  return v;
}

function ref(v: unknown, where: string): Ref {
  const o = object(v, where);
  return { id: requiredString(o, 'id', where), uri: requiredString(o, 'uri', where) };
}

const optionalRef = (v: unknown, where: string): Ref | undefined =>
  v === undefined || v === null ? undefined : ref(v, where);

function labels(v: unknown): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  const o = object(v, 'tunnel.labels');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(o)) {
    if (typeof value !== 'string') throw bad('tunnel.labels holds a non-string value');
    out[name] = value;
  }
  return out;
}

/** The spec says one Ref, the real API sends an array: accept both. */
function backends(v: unknown): Ref[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map((item, i) => ref(item, `tunnel.backends[${i}]`));
  return [ref(v, 'tunnel.backends')];
}

export function parseTunnel(v: unknown): Tunnel {
  const o = object(v, 'tunnel');
  return {
    id: requiredString(o, 'id', 'tunnel'),
    publicUrl: optionalString(o, 'public_url', 'tunnel'),
    startedAt: requiredString(o, 'started_at', 'tunnel'),
    metadata: optionalString(o, 'metadata', 'tunnel'),
    proto: optionalString(o, 'proto', 'tunnel'),
    region: requiredString(o, 'region', 'tunnel'),
    tunnelSession: ref(o.tunnel_session, 'tunnel.tunnel_session'),
    endpoint: optionalRef(o.endpoint, 'tunnel.endpoint'),
    labels: labels(o.labels),
    backends: backends(o.backends),
    forwardsTo: optionalString(o, 'forwards_to', 'tunnel'),
  };
}

export function parseTunnelPage(v: unknown): TunnelPage {
  const o = object(v, 'tunnel list');
  if (!Array.isArray(o.tunnels)) throw bad('tunnel list.tunnels is missing');
  const next = o.next_page_uri;
  if (next !== undefined && next !== null && typeof next !== 'string')
    throw bad('next_page_uri is not a string');
  return { tunnels: o.tunnels.map(parseTunnel), nextPageUri: next ?? null };
}

export function parseBackendModule(v: unknown): BackendModule {
  const o = object(v, 'backend module');
  const enabled = o.enabled;
  if (typeof enabled !== 'boolean') throw bad('backend module.enabled is missing');
  return { enabled, backend: optionalRef(o.backend, 'backend module.backend') };
}
