// Global ids are the upstream's ids; the type comes from the prefix (tn_ → Tunnel, ep_ → Endpoint,
// ts_ → TunnelSession, rd_ → ReservedDomain, ra_ → ReservedAddress).
import { badInput } from '../errors';
import { ID_KINDS, isIdOf, kindOf, quote } from '../ids';

const TYPENAME_BY_KIND: Partial<Record<string, string>> = {
  tunnel: 'Tunnel',
  endpoint: 'Endpoint',
  tunnelSession: 'TunnelSession',
  reservedDomain: 'ReservedDomain',
  reservedAddress: 'ReservedAddress',
};

/** Malformed ids are BAD_USER_INPUT; a well-formed id of a type the schema does not hold gets a non-type name. */
export function decodeNodeId(globalID: string): { typename: string; id: string } {
  const kind = kindOf(globalID);
  if (kind === null)
    throw badInput(
      `${quote(globalID)} is not an ngrok id (expected a prefix such as tn_ and letters or digits).`,
    );
  return { typename: TYPENAME_BY_KIND[kind] ?? `unsupported:${kind}`, id: globalID };
}

const NOUN_BY_KIND = {
  tunnel: 'a tunnel',
  endpoint: 'an endpoint',
  tunnelSession: 'a tunnel session',
  reservedDomain: 'a reserved domain',
  reservedAddress: 'a reserved address',
} as const;

export type NodeKind = keyof typeof NOUN_BY_KIND;

/** The id a by-id field (tunnel, endpoint) was given, or BAD_USER_INPUT when it is not of that kind. */
export function nodeIdOf(id: string, kind: keyof typeof NOUN_BY_KIND): string {
  if (!isIdOf(id, kind)) {
    throw badInput(
      `${quote(id)} is not ${NOUN_BY_KIND[kind]} id (${ID_KINDS[kind]}_ followed by letters or digits).`,
    );
  }
  return id;
}
