// Readers of what the upstream sends, validated at the edge: unknown fields are ignored, a missing or
// mistyped required field is UPSTREAM_BAD_RESPONSE. Optional fields come back as undefined, never null.
import { GatewayError } from '../../errors';
import { type IdKind, isBackendId, isIdOf } from '../../ids';
import { badResponseMessage } from '../http/messages';

export type Json = Record<string, unknown>;

/** A reference to another resource, as the upstream sends it. */
export interface Ref {
  readonly id: string;
  readonly uri: string;
}

export const badResponse = (what: string): GatewayError =>
  new GatewayError('UPSTREAM_BAD_RESPONSE', badResponseMessage(what));

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

/** What an id from the upstream must be: one kind, or any backend kind. */
export type IdCheck = IdKind | 'backend';

/**
 * An id the upstream sent, checked as strictly as an id a client sends (prefix, base62, length):
 * ids reach URL paths, cursors and clients, so one like "../../edges/x" never gets past here.
 */
export function requiredId(o: Json, key: string, where: string, kind: IdCheck): string {
  const id = requiredString(o, key, where);
  if (!(kind === 'backend' ? isBackendId(id) : isIdOf(id, kind))) {
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
