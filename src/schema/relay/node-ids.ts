// Global ids are the upstream's ids; the type comes from the prefix (tn_ → Tunnel, ep_ → Endpoint,
// ts_ → TunnelSession, rd_ → ReservedDomain, ra_ → ReservedAddress).
import { badInput } from '../../errors';
import { ID_KINDS, isIdOf, kindOf, quote } from '../../ids';

/** The kinds of id this schema holds nodes of: each one's type and how a message names it. */
const NODE_KINDS = {
  tunnel: { typename: 'Tunnel', noun: 'a tunnel' },
  endpoint: { typename: 'Endpoint', noun: 'an endpoint' },
  tunnelSession: { typename: 'TunnelSession', noun: 'a tunnel session' },
  reservedDomain: { typename: 'ReservedDomain', noun: 'a reserved domain' },
  reservedAddress: { typename: 'ReservedAddress', noun: 'a reserved address' },
} as const;

export type NodeKind = keyof typeof NODE_KINDS;

/** The node kind of an id, or undefined when it is malformed or of a kind this schema does not hold. */
export function nodeKindOf(id: string): NodeKind | undefined {
  const kind = kindOf(id);
  return kind !== null && Object.hasOwn(NODE_KINDS, kind) ? (kind as NodeKind) : undefined;
}

/** Malformed ids are BAD_USER_INPUT; a well-formed id of a type the schema does not hold gets a non-type name. */
export function decodeNodeId(globalID: string): { typename: string; id: string } {
  const kind = kindOf(globalID);
  if (kind === null)
    throw badInput(
      `${quote(globalID)} is not an ngrok id (expected a prefix such as tn_ and letters or digits).`,
    );
  const node = nodeKindOf(globalID);
  return { typename: node ? NODE_KINDS[node].typename : `unsupported:${kind}`, id: globalID };
}

/** The id a by-id field (tunnel, endpoint) was given, or BAD_USER_INPUT when it is not of that kind. */
export function nodeIdOf(id: string, kind: NodeKind): string {
  if (!isIdOf(id, kind)) {
    throw badInput(
      `${quote(id)} is not ${NODE_KINDS[kind].noun} id (${ID_KINDS[kind]}_ followed by letters or digits).`,
    );
  }
  return id;
}

/** The description of a by-id field's `id` argument: "A tunnel id (tn_…)." */
export function idArgDescription(kind: NodeKind): string {
  const noun = NODE_KINDS[kind].noun;
  return `${noun[0]?.toUpperCase()}${noun.slice(1)} id (${ID_KINDS[kind]}_…).`;
}
