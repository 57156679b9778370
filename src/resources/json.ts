// Readers of what the upstream sends, validated at the edge: unknown fields are ignored, a missing or
// mistyped required field is UPSTREAM_BAD_RESPONSE. Optional fields come back as undefined, never null.
import { GatewayError } from '../errors';
import { hasPrefixOf, ID_SHAPE } from './id-shape';
import type { IdKindSpec } from './resource';

export type Json = Record<string, unknown>;

/** A reference to another resource, as the upstream sends it. */
export interface Ref {
  readonly id: string;
  readonly uri: string;
}

/** What a client reads of an answer the gateway could not read (upstream/call/messages.ts uses it too). */
export const BAD_RESPONSE = 'The ngrok API sent a response the gateway could not read.';

/** UPSTREAM_BAD_RESPONSE naming what was wrong with a body that parsed (our words, no upstream text). */
export const badResponse = (what: string): GatewayError =>
  new GatewayError('UPSTREAM_BAD_RESPONSE', `${BAD_RESPONSE.slice(0, -1)} (${what}).`);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function object(v: unknown, where: string): Json {
  if (!isObject(v)) throw badResponse(`${where} is not an object`);
  return v;
}

export function requiredString(o: Json, key: string, where: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw badResponse(`${where}.${key} is missing`);
  return v;
}

export function optionalString(o: Json, key: string, where: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badResponse(`${where}.${key} is not a string`);
  return v;
}

/** An optional string where "" means "does not apply". */
export const present = (o: Json, key: string, where: string): string | undefined =>
  optionalString(o, key, where) || undefined;

/** A required string that must not be empty. */
export function filled(o: Json, key: string, where: string): string {
  const value = requiredString(o, key, where);
  if (value === '') throw badResponse(`${where}.${key} is empty`);
  return value;
}

/** What an id from the upstream must be: of one kind, of any of several, or any well-formed id. */
export type IdCheck = IdKindSpec | readonly IdKindSpec[] | 'any';

function idMatches(id: string, kind: IdCheck): boolean {
  if (kind === 'any') return ID_SHAPE.test(id);
  if (Array.isArray(kind)) return kind.some((k: IdKindSpec) => hasPrefixOf(id, k));
  return hasPrefixOf(id, kind as IdKindSpec);
}

/**
 * An id the upstream sent, checked as strictly as an id a client sends (prefix, base62, length):
 * ids reach URL paths, cursors and clients, so one like "../../edges/x" never gets past here.
 */
export function requiredId(o: Json, key: string, where: string, kind: IdCheck): string {
  const id = requiredString(o, key, where);
  if (!idMatches(id, kind)) {
    throw badResponse(`${where}.${key} is not a well-formed id`);
  }
  return id;
}

export function ref(v: unknown, where: string, kind: IdCheck): Ref {
  const o = object(v, where);
  return { id: requiredId(o, 'id', where, kind), uri: requiredString(o, 'uri', where) };
}

export const optionalRef = (v: unknown, where: string, kind: IdCheck): Ref | undefined =>
  v === undefined || v === null ? undefined : ref(v, where, kind);

/** A page of a list call: its items under `key`, and next_page_uri (explicitly null on the last page). */
export function page<T>(
  v: unknown,
  key: string,
  item: (v: unknown) => T,
): { items: T[]; nextPageUri: string | null } {
  const o = object(v, `${key} list`);
  const items = o[key];
  if (!Array.isArray(items)) throw badResponse(`${key} list.${key} is missing`);
  const next = o.next_page_uri;
  if (next !== undefined && next !== null && typeof next !== 'string')
    throw badResponse('next_page_uri is not a string');
  return { items: items.map(item), nextPageUri: next ?? null };
}
