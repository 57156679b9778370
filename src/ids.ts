// Identifiers arrive from clients: each is checked here (prefix for its kind, then base62 only,
// bounded length) before it may reach the upstream. The kinds and their prefixes are the resource
// table's (resources/id-kinds.ts); the shape is resources/id-shape.ts.
import { BACKEND_KINDS, ID_KIND_SPECS, type IdKind } from './resources/id-kinds';
import { hasPrefixOf, ID_SHAPE, idPattern } from './resources/id-shape';

export type { IdKind };

/** Each kind's prefix: `{ tunnel: 'tn', … }`. */
export const ID_KINDS = Object.fromEntries(ID_KIND_SPECS.map((k) => [k.kind, k.prefix])) as Readonly<
  Record<IdKind, string>
>;

const KIND_BY_PREFIX = new Map<string, IdKind>(ID_KIND_SPECS.map((k) => [k.prefix, k.kind]));

/** The kind of a well-formed id, `'unknown'` for a well-formed id of a prefix we do not know, null if malformed. */
export function kindOf(id: string): IdKind | 'unknown' | null {
  // test and slice, not exec: no match array per id (every id of every upstream item passes here).
  if (!ID_SHAPE.test(id)) return null;
  return KIND_BY_PREFIX.get(id.slice(0, id.indexOf('_'))) ?? 'unknown';
}

/** Each kind's ids as one pattern (its prefix, then the suffix): no prefix sliced off and looked up. */
const PATTERN_OF = new Map<IdKind, RegExp>(ID_KIND_SPECS.map((k) => [k.kind, idPattern(k.prefix)]));

export const isIdOf = (id: string, kind: IdKind): boolean => PATTERN_OF.get(kind)?.test(id) === true;

/** True for an id of any of the five backend kinds. */
export const isBackendId = (id: string): boolean => BACKEND_KINDS.some((kind) => hasPrefixOf(id, kind));

/** A short, safe rendering of a client-supplied value for error messages. */
export const quote = (value: string): string =>
  JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
