// Identifiers arrive from clients: each is checked here (prefix for its kind, then base62 only,
// bounded length) before it may reach the upstream. Real ids carry 27 base62 characters; a little
// slack keeps the gateway working if the upstream ever lengthens them.

export const ID_KINDS = {
  tunnel: 'tn',
  tunnelSession: 'ts',
  endpoint: 'ep',
  reservedDomain: 'rd',
  reservedAddress: 'ra',
  httpsEdge: 'edghts',
  httpsEdgeRoute: 'edghtsrt',
  tunnelGroupBackend: 'bkdtg',
  failoverBackend: 'bkdfo',
  weightedBackend: 'bkdwd',
  httpResponseBackend: 'bkdhr',
  staticBackend: 'bkdsc',
} as const;

export type IdKind = keyof typeof ID_KINDS;

/** What follows an id's prefix and its underscore: base62, bounded. */
const SUFFIX = '[A-Za-z0-9]{1,64}';
const SHAPE = new RegExp(`^([a-z]{2,10})_(${SUFFIX})$`);
const KIND_BY_PREFIX = new Map<string, IdKind>(
  Object.entries(ID_KINDS).map(([kind, prefix]) => [prefix, kind as IdKind]),
);
const BACKEND_KINDS: readonly IdKind[] = [
  'tunnelGroupBackend',
  'failoverBackend',
  'weightedBackend',
  'httpResponseBackend',
  'staticBackend',
];

/** The kind of a well-formed id, `'unknown'` for a well-formed id of a prefix we do not know, null if malformed. */
export function kindOf(id: string): IdKind | 'unknown' | null {
  // test and slice, not exec: no match array per id (every id of every upstream item passes here).
  if (!SHAPE.test(id)) return null;
  return KIND_BY_PREFIX.get(id.slice(0, id.indexOf('_'))) ?? 'unknown';
}

/** Each kind's ids as one pattern (its prefix, then the suffix): no prefix sliced off and looked up. */
const PATTERN_OF = new Map<IdKind, RegExp>(
  Object.entries(ID_KINDS).map(([kind, prefix]) => [kind as IdKind, new RegExp(`^${prefix}_${SUFFIX}$`)]),
);

export const isIdOf = (id: string, kind: IdKind): boolean => PATTERN_OF.get(kind)?.test(id) === true;

export const isBackendId = (id: string): boolean => {
  const kind = kindOf(id);
  return kind !== null && kind !== 'unknown' && BACKEND_KINDS.includes(kind);
};

/** A short, safe rendering of a client-supplied value for error messages. */
export const quote = (value: string): string =>
  JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
