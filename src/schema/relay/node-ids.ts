// Global ids are the upstream's ids; the type comes from the prefix (tn_ → Tunnel, ep_ → Endpoint,
// and so on for every node kind of the resource table).
import { badInput } from '../../errors';
import { kindOf, quote } from '../../ids';
import { NODE_RESOURCES, type NodeKind, type NodeResource, resourceOfKind } from '../../resources';

export type { NodeKind };

const NODE_KINDS: ReadonlySet<string> = new Set(NODE_RESOURCES.map((r) => r.kind));

/** "a tunnel", "an endpoint". */
const withArticle = (noun: string): string => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** The node kind of an id, or undefined when it is malformed or of a kind this schema does not hold. */
export function nodeKindOf(id: string): NodeKind | undefined {
  const kind = kindOf(id);
  return kind !== null && NODE_KINDS.has(kind) ? (kind as NodeKind) : undefined;
}

/** Malformed ids are BAD_USER_INPUT; a well-formed id of a type the schema does not hold gets a non-type name. */
export function decodeNodeId(globalID: string): { typename: string; id: string } {
  const kind = kindOf(globalID);
  if (kind === null)
    throw badInput(
      `${quote(globalID)} is not an ngrok id (expected a prefix such as tn_ and letters or digits).`,
    );
  const node = nodeKindOf(globalID);
  return { typename: node ? resourceOfKind(node).typeName : `unsupported:${kind}`, id: globalID };
}

/** isTypeOf by the id's prefix: the kinds never share one. */
export const isNodeOf =
  (resource: NodeResource) =>
  (value: unknown): boolean =>
    typeof value === 'object' &&
    value !== null &&
    kindOf(String((value as { id?: unknown }).id)) === resource.kind;

/** The id a by-id field (tunnel, endpoint) was given, or BAD_USER_INPUT when it is not of that kind. */
export function nodeIdOf(id: string, resource: NodeResource): string {
  if (kindOf(id) !== resource.kind) {
    throw badInput(
      `${quote(id)} is not ${withArticle(resource.noun)} id (${resource.prefix}_ followed by letters or digits).`,
    );
  }
  return id;
}

/** The description of a by-id field's `id` argument: "A tunnel id (tn_…)." */
export function idArgDescription(resource: NodeResource): string {
  const noun = withArticle(resource.noun);
  return `${noun[0]?.toUpperCase()}${noun.slice(1)} id (${resource.prefix}_…).`;
}
