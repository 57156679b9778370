// The demand planner: after validation and before execution, the upstream calls an operation will
// make at most, and the objects its answer will hold at most, from its document, its variables and
// the declarations on the schema's fields (schema/upstream-calls.ts). It walks the operation as
// execution would (collect.ts); each position carries how many objects can stand there and in how
// many separate arrivals they come, which is what the loaders' batches depend on (fetch-calls.ts).
import {
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  getOperationAST,
  isAbstractType,
  isListType,
  isNonNullType,
  isObjectType,
  type SelectionSetNode,
} from 'graphql';
import { GatewayError } from '../../../errors';
import { kindOf } from '../../../ids';
import {
  declaredCalls,
  type FetchingByKind,
  type UpstreamCalls,
  WRAPPER,
} from '../../../schema/upstream-calls';
import { MAX_PAGE_SIZE } from '../../../upstream';
import { ArgumentRefusal, firstOf, idsOf } from './arguments';
import { collectFields, fragmentsOf, type Operation, subSelections } from './collect';
import { fetchCalls } from './fetch-calls';
import { type StreamCosts, streamCosts, withObservations } from './observation';
import { add, larger, NOTHING, type Plan, type Position } from './plan-sums';
import { RootLookups } from './root-lookups';

export { ArgumentRefusal } from './arguments';
export type { Plan } from './plan-sums';

/**
 * Wrappers, not objects of the account, as the schema marks them (upstream-calls.ts `wrapper`): a
 * page's (counted through the items it carries) and a reference's (counted with the object that
 * holds it; the object it names counts when joined).
 */
const isWrapper = (type: GraphQLObjectType): boolean => type.extensions?.[WRAPPER] === true;

class Planner {
  /** Response keys down to the field being planned (an argument refusal names where). */
  private readonly path: string[] = [];
  /** A subscription's events' joins, priced alone and 100 together (its one root field's). */
  stream: StreamCosts | undefined;

  constructor(
    private readonly op: Operation,
    /** A query's root lookups, counted together (root-lookups.ts); none for a mutation. */
    private readonly rootLookups?: RootLookups,
  ) {}

  /** The objects of `type` at `at`, their fields asked by `sets`; lists directly below hold `items` each. */
  object(
    type: GraphQLObjectType,
    sets: readonly SelectionSetNode[],
    at: Position,
    items = 1,
    refers?: readonly string[],
  ): Plan {
    let plan: Plan = { calls: 0, writes: 0, objects: isWrapper(type) ? 0 : at.n };
    for (const [key, nodes] of collectFields(this.op, type, sets)) {
      this.path.push(key);
      plan = add(plan, this.field(type, nodes, at, items, refers));
      this.path.pop();
    }
    return plan;
  }

  /** A value of `type` (lists, non-null, abstract types unwrapped) at `at`. */
  value(
    type: GraphQLOutputType,
    sets: readonly SelectionSetNode[],
    at: Position,
    items = 1,
    refers?: readonly string[],
  ): Plan {
    if (isNonNullType(type)) return this.value(type.ofType, sets, at, items, refers);
    if (isListType(type))
      return this.value(type.ofType, sets, { n: at.n * items, groups: at.groups }, 1, refers);
    if (isObjectType(type)) return this.object(type, sets, at, 1, refers);
    if (!isAbstractType(type)) return NOTHING;
    // One object is one of the possible types: the most any of them asks.
    return this.op.schema
      .getPossibleTypes(type)
      .reduce((most, t) => larger(most, this.object(t, sets, at, 1, refers)), NOTHING);
  }

  private field(
    parent: GraphQLObjectType,
    nodes: readonly FieldNode[],
    at: Position,
    items: number,
    refers: readonly string[] | undefined,
  ): Plan {
    const first = nodes[0] as FieldNode;
    const field = parent.getFields()[first.name.value];
    // __typename and introspection fields: the schema answers them.
    if (!field) return NOTHING;
    const sets = subSelections(nodes);
    const declaration = declaredCalls(field);
    const args = field.args.length > 0 ? getArgumentValues(field, first, this.op.variables) : {};
    try {
      return this.declared(declaration, field, args, sets, at, items, refers);
    } catch (error) {
      if (error instanceof GatewayError) throw new ArgumentRefusal(error, [...this.path]);
      throw error;
    }
  }

  private declared(
    declaration: UpstreamCalls | undefined,
    field: GraphQLField<unknown, unknown>,
    args: Record<string, unknown>,
    sets: readonly SelectionSetNode[],
    at: Position,
    items: number,
    refers: readonly string[] | undefined,
  ): Plan {
    switch (declaration?.kind) {
      case 'page':
        return this.page(field.type, sets, at, firstOf(args));
      case 'lookup':
        return this.lookup(idsOf(args, declaration.arg, declaration.most), declaration.fetching, sets, at);
      case 'refers':
        return this.value(field.type, sets, at, declaration.most ?? 1, declaration.to);
      case 'embedded':
        return this.value(field.type, sets, at, declaration.most);
      case 'join':
        return this.join(refers ?? [], declaration.fetching, sets, at);
      case 'get':
        return add({ calls: at.n, writes: 0, objects: 0 }, this.value(field.type, sets, at));
      case 'stream':
        // A payload holds one event; the joins of an observation's events are priced in observation.ts.
        this.stream = streamCosts((events) => this.value(field.type, sets, { ...at, n: at.n * events }));
        return { ...this.value(field.type, sets, at), calls: 0 };
      case 'write':
        return add(
          { calls: declaration.calls * at.n, writes: declaration.calls * at.n, objects: 0 },
          this.value(field.type, sets, at),
        );
      default:
        return this.value(field.type, sets, at, items);
    }
  }

  /** One list call per page, one more when hasNextPage is asked at the upstream's page cap. */
  private page(
    type: GraphQLOutputType,
    sets: readonly SelectionSetNode[],
    at: Position,
    first: number,
  ): Plan {
    const connection = getNamedType(type);
    if (!isObjectType(connection)) return NOTHING;
    const probe = first === MAX_PAGE_SIZE && this.asksHasNextPage(connection, sets) ? 1 : 0;
    const pages = { calls: at.n * (1 + probe), writes: 0, objects: 0 };
    // Each page arrives in one answer: its items come in as many groups as there are pages.
    return add(pages, this.object(connection, sets, { n: at.n, groups: at.n }, first));
  }

  /** Whether pageInfo.hasNextPage is asked, under any alias. */
  private asksHasNextPage(connection: GraphQLObjectType, sets: readonly SelectionSetNode[]): boolean {
    const field = connection.getFields().pageInfo;
    const type = field && getNamedType(field.type);
    if (!type || !isObjectType(type)) return false;
    const named = (name: string) => (nodes: readonly FieldNode[]) => nodes[0]?.name.value === name;
    const pageInfos = [...collectFields(this.op, connection, sets).values()].filter(named('pageInfo'));
    return pageInfos.some((nodes) =>
      [...collectFields(this.op, type, subSelections(nodes)).values()].some(named('hasNextPage')),
    );
  }

  /** Objects by id (node, nodes, tunnel, endpoint): the ids are known, so the kinds are. */
  private lookup(
    ids: readonly string[],
    fetching: FetchingByKind,
    sets: readonly SelectionSetNode[],
    at: Position,
  ): Plan {
    const byKind = new Map<string, { asked: number; distinct: Set<string> }>();
    for (const id of ids) {
      const kind = kindOf(id);
      if (kind === null || kind === 'unknown' || !fetching[kind]) continue;
      const entry = byKind.get(kind) ?? { asked: 0, distinct: new Set() };
      entry.asked += 1;
      entry.distinct.add(id);
      byKind.set(kind, entry);
    }
    let plan = NOTHING;
    for (const [kind, { asked, distinct }] of byKind) {
      const fetched = fetching[kind as keyof FetchingByKind];
      const type = fetched && this.typeNamed(fetched.typename);
      if (!fetched || !type) continue;
      if (this.rootLookups && this.path.length === 1) this.rootLookups.add(kind, fetched.fetching, distinct);
      else {
        const calls = fetchCalls(fetched.fetching, distinct.size * at.n, at.groups);
        plan = add(plan, { calls, writes: 0, objects: 0 });
      }
      plan = add(plan, this.object(type, sets, { n: asked * at.n, groups: at.groups }));
    }
    return plan;
  }

  /** Ref.node: the named objects of every kind the reference's field refers to. */
  private join(
    refers: readonly string[],
    fetching: FetchingByKind,
    sets: readonly SelectionSetNode[],
    at: Position,
  ): Plan {
    let plan = NOTHING;
    // A reference names one object: the kinds read one GET per id (the backends) share its n GETs.
    let eachCounted = false;
    for (const kind of refers) {
      const fetched = fetching[kind as keyof FetchingByKind];
      const type = fetched && this.typeNamed(fetched.typename);
      if (!fetched || !type) continue;
      const each = fetched.fetching === 'get-each';
      const calls = each && eachCounted ? 0 : fetchCalls(fetched.fetching, at.n, at.groups);
      eachCounted ||= each;
      plan = add(plan, { calls, writes: 0, objects: 0 });
      // A batch's objects arrive together: as many groups as the references came in.
      plan = add(plan, this.object(type, sets, at));
    }
    return plan;
  }

  private typeNamed(name: string): GraphQLObjectType | undefined {
    const type: GraphQLNamedType | undefined = this.op.schema.getType(name);
    return type && isObjectType(type) ? type : undefined;
  }
}

/** What a plan is made for: the operation `operationName` of `document`, with its coerced `variables` (variables.ts). */
export interface PlanRequest {
  readonly schema: GraphQLSchema;
  readonly document: DocumentNode;
  readonly operationName?: string | null;
  readonly variables?: Readonly<Record<string, unknown>> | null;
  /** MAX_UPSTREAM_CALLS_PER_OPERATION: what a subscription's observations are admitted within. */
  readonly maxUpstreamCalls?: number;
}

/**
 * The plan of the operation (NOTHING when the document has no such operation: nothing runs). Throws
 * an ArgumentRefusal for a list argument outside its documented range.
 */
export function planOperation(request: PlanRequest): Plan {
  const { schema, document, operationName, variables } = request;
  const operation = getOperationAST(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return NOTHING;
  const fragments = fragmentsOf(document);
  const lookups = operation.operation === 'query' ? new RootLookups() : undefined;
  const planner = new Planner({ schema, fragments, variables: variables ?? {} }, lookups);
  const plan = planner.object(root, [operation.selectionSet], { n: 1, groups: 1 });
  // The root object is no object of the answer.
  const whole = { ...plan, calls: plan.calls + (lookups?.calls() ?? 0), objects: plan.objects - 1 };
  return planner.stream ? withObservations(whole, planner.stream, request.maxUpstreamCalls) : whole;
}
