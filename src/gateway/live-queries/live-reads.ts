// What a live query reads, judged before it starts from its document, its variables and the
// declarations on the schema's fields (schema/upstream-calls.ts), walked as execution collects
// them (limits/demand/collect.ts): the observed kinds it needs, or the first field no observation
// covers. A page, a by-id read and a join read one kind each; the kinds an account's observation
// holds are live/'s (observedKindOf). Everything else that reaches the upstream (a backend module,
// a Ref whose kinds are not all observed, a node id of such a kind) is refused, naming the field.
import {
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  getArgumentValues,
  getNamedType,
  isAbstractType,
  isObjectType,
  type SelectionSetNode,
} from 'graphql';
import { type IdKind, kindOf } from '../../ids';
import { type LiveKind, observedKindOf } from '../../live';
import { NODE_RESOURCES, type NodeKind, type Resource, resourceOfKind } from '../../resources';
import { declaredCalls, type FetchingByKind } from '../../schema/upstream-calls';
import { idsOf } from '../limits/demand/arguments';
import { collectFields, type Operation, subSelections } from '../limits/demand/collect';

export type LiveReads =
  | { readonly kinds: ReadonlySet<LiveKind> }
  /** Where (response path) and what (the field's coordinate) no observation covers. */
  | { readonly refused: { readonly path: string; readonly field: string; readonly why: string } };

/** The resource a connection lists: the type of its nodes. */
function listedResource(type: GraphQLOutputType): Resource | undefined {
  const connection = getNamedType(type);
  const nodes = isObjectType(connection) ? connection.getFields().nodes : undefined;
  const name = nodes && getNamedType(nodes.type).name;
  return NODE_RESOURCES.find((resource) => resource.typeName === name);
}

/** The observed kind of an id kind a field may fetch, or undefined. */
function observedNodeKind(kind: IdKind): LiveKind | undefined {
  // Not every id kind is a node kind (an edge's, a backend's): those are not observed either.
  const resource = resourceOfKind(kind as NodeKind) as Resource | undefined;
  return resource && observedKindOf(resource);
}

class Refusal extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

class Walk {
  readonly kinds = new Set<LiveKind>();
  readonly path: string[] = [];
  field = '';

  constructor(private readonly op: Operation) {}

  object(type: GraphQLObjectType, sets: readonly SelectionSetNode[], refers?: readonly IdKind[]): void {
    for (const [key, nodes] of collectFields(this.op, type, sets)) {
      const first = nodes[0] as FieldNode;
      const field = type.getFields()[first.name.value];
      if (!field) continue;
      this.path.push(key);
      this.field = `${type.name}.${field.name}`;
      this.declared(field, first, subSelections(nodes), refers);
      this.path.pop();
    }
  }

  value(type: GraphQLOutputType, sets: readonly SelectionSetNode[], refers?: readonly IdKind[]): void {
    if (sets.length === 0) return;
    const named = getNamedType(type);
    if (isObjectType(named)) this.object(named, sets, refers);
    else if (isAbstractType(named))
      for (const possible of this.op.schema.getPossibleTypes(named)) this.object(possible, sets, refers);
  }

  private declared(
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
    sets: readonly SelectionSetNode[],
    refers: readonly IdKind[] | undefined,
  ): void {
    this.value(field.type, sets, this.judged(field, node, refers));
  }

  /** Refuses `field` when it reads what no observation holds; the kinds its Refs name, for a `refers` field. */
  private judged(
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
    refers: readonly IdKind[] | undefined,
  ): readonly IdKind[] | undefined {
    const declaration = declaredCalls(field);
    switch (declaration?.kind) {
      case undefined:
        return undefined;
      case 'page': {
        const resource = listedResource(field.type);
        const kind = resource && observedKindOf(resource);
        if (kind === undefined) throw new Refusal('it lists what no observation holds');
        this.kinds.add(kind);
        return undefined;
      }
      case 'lookup': {
        const args = getArgumentValues(field, node, this.op.variables);
        const ids = idsOf(args, declaration.arg, declaration.most);
        const kinds = ids.map((id) => kindOf(id)).filter((k): k is IdKind => k !== null);
        this.needAll(kinds, declaration.fetching);
        return undefined;
      }
      case 'refers':
        return declaration.to;
      case 'join':
        this.needAll(refers ?? [], declaration.fetching);
        return undefined;
      default:
        throw new Refusal('it reads what no observation holds');
    }
  }

  /** Each kind the field fetches among `kinds` must be observed. */
  private needAll(kinds: readonly IdKind[], fetching: FetchingByKind): void {
    for (const kind of kinds) {
      if (!fetching[kind]) continue;
      const observed = observedNodeKind(kind);
      if (observed === undefined)
        throw new Refusal(`it can name ${fetching[kind]?.typename} objects, which no observation holds`);
      this.kinds.add(observed);
    }
  }
}

/** The kinds `root`'s selection reads, or the first field no observation covers. */
export function liveReads(op: Operation, root: GraphQLObjectType, set: SelectionSetNode): LiveReads {
  const walk = new Walk(op);
  try {
    walk.object(root, [set]);
    return { kinds: walk.kinds };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { refused: { path: walk.path.join('.'), field: walk.field, why: error.why } };
  }
}
