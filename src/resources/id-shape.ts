// The shape every ngrok id has, before any table of kinds: a lowercase prefix, an underscore, then
// base62 of bounded length. Real ids carry 27 base62 characters; a little slack keeps the gateway
// working if the upstream ever lengthens them. (Kept apart from ids.ts so that the JSON readers of
// the kinds can check ids without importing the table that lists those kinds.)
import type { IdKindSpec } from './resource';

/** What follows an id's prefix and its underscore: base62, bounded. */
const SUFFIX = '[A-Za-z0-9]{1,64}';

export const ID_SHAPE = new RegExp(`^([a-z]{2,10})_(${SUFFIX})$`);

/** The pattern of one kind's ids: its prefix, then the suffix (no prefix sliced off and looked up). */
export const idPattern = (prefix: string): RegExp => new RegExp(`^${prefix}_${SUFFIX}$`);

const patterns = new WeakMap<IdKindSpec, RegExp>();

/** True when `id` is a well-formed id of `kind`. */
export function hasPrefixOf(id: string, kind: IdKindSpec): boolean {
  let pattern = patterns.get(kind);
  if (pattern === undefined) {
    pattern = idPattern(kind.prefix);
    patterns.set(kind, pattern);
  }
  return pattern.test(id);
}
