// Random operations from the schema, for the demand planner's property test: every query field and
// some mutations, aliases, named and inline fragments, variables, @skip/@include (literal or from a
// variable), list arguments at and past their edges, and joins (Ref.node) nested up to three deep.
// Seeded: the same seed gives the same operations.
import {
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isLeafType,
  isObjectType,
} from 'graphql';

/** mulberry32: small, fast, seeded. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Ids the operations use: the account's own, unknown ones, other kinds, malformed. */
export interface IdPools {
  readonly tunnels: readonly string[];
  readonly endpoints: readonly string[];
  readonly sessions: readonly string[];
  readonly domains: readonly string[];
  readonly addresses: readonly string[];
  readonly routes: readonly { edgeId: string; routeId: string }[];
}

export interface Generated {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  /** It defers a fragment (@defer): answered in payloads. */
  readonly deferred?: boolean;
}

const FIRSTS = [undefined, 1, 2, 7, 20, 99, 100, 101, 0, -1, -100000000];
const MAX_JOINS = 3;

class Generator {
  private readonly fragments: string[] = [];
  private readonly variableDefs: string[] = [];
  readonly variables: Record<string, unknown> = {};
  private names = 0;
  private aliases = 0;
  private directives = 0;
  /** Fragments deferred so far (only in a query that may defer). */
  deferrals = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly random: () => number,
    private readonly ids: IdPools,
    private readonly mayDefer = false,
  ) {}

  private chance = (p: number) => this.random() < p;
  private pick = <T>(items: readonly T[]): T => items[Math.floor(this.random() * items.length)] as T;

  /** A variable of `type` holding `value`, or the value as a literal. */
  private value(type: string, value: unknown): string {
    if (!this.chance(0.4)) return JSON.stringify(value);
    this.names += 1;
    const name = `v${this.names}`;
    this.variableDefs.push(`$${name}: ${type}`);
    this.variables[name] = value;
    return `$${name}`;
  }

  private anyId(): string {
    const kind = this.random();
    if (kind < 0.25) return this.pick(this.ids.tunnels);
    if (kind < 0.5) return this.pick(this.ids.endpoints);
    if (kind < 0.6) return this.pick(this.ids.sessions);
    if (kind < 0.68) return this.pick(this.ids.domains);
    if (kind < 0.76) return this.pick(this.ids.addresses);
    if (kind < 0.84) return `tn_${'Z'.repeat(27)}`;
    if (kind < 0.92) return 'ts_2J0000000000000000000000001';
    return this.chance(0.5) ? 'cr_2J0000000000000000000000001' : 'not an id';
  }

  private args(field: GraphQLField<unknown, unknown>): string {
    const given: string[] = [];
    for (const arg of field.args) {
      const name = arg.name;
      if (name === 'first') {
        const first = this.pick(FIRSTS);
        if (first !== undefined) given.push(`first: ${this.value('Int', first)}`);
      } else if (name === 'id') {
        const own: Record<string, readonly string[]> = {
          tunnel: this.ids.tunnels,
          endpoint: this.ids.endpoints,
          tunnelSession: this.ids.sessions,
          reservedDomain: this.ids.domains,
          reservedAddress: this.ids.addresses,
        };
        const pool = own[field.name];
        const id = pool ? this.pick(pool) : this.anyId();
        given.push(`id: ${this.value('ID!', this.chance(0.1) ? this.anyId() : id)}`);
      } else if (name === 'ids') {
        const n = this.chance(0.05) ? 101 : Math.floor(this.random() * 12);
        given.push(
          `ids: ${this.value(
            '[ID!]!',
            Array.from({ length: n }, () => this.anyId()),
          )}`,
        );
      } else if (name === 'edgeId' || name === 'routeId') {
        given.push(`${name}: ${JSON.stringify(this.pick(this.ids.routes)[name])}`);
      } else if (name === 'filter' && this.chance(0.3)) {
        given.push(`filter: { types: [${this.pick(['AGENT', 'CLOUD', 'AGENT, CLOUD'])}] }`);
      }
    }
    return given.length > 0 ? `(${given.join(', ')})` : '';
  }

  /** @skip or @include, literal or from a variable, on about one selection in ten. */
  private directive(): string {
    if (this.directives >= 6 || !this.chance(0.1)) return '';
    this.directives += 1;
    const which = this.chance(0.5) ? 'skip' : 'include';
    return ` @${which}(if: ${this.value('Boolean!', this.chance(0.5))})`;
  }

  private alias(): string {
    if (this.aliases >= 8 || !this.chance(0.2)) return '';
    this.aliases += 1;
    return `a${this.aliases}: `;
  }

  /** A selection set on `type`, `joins` Ref.node deep so far. */
  selection(type: GraphQLNamedType, joins: number, depth: number): string {
    if (isAbstractType(type)) {
      const parts = this.schema
        .getPossibleTypes(type)
        .filter(() => this.chance(0.6))
        .map((t) => `... on ${t.name} ${this.selection(t, joins, depth + 1)}`);
      return `{ __typename ${parts.join(' ')} }`;
    }
    if (!isObjectType(type)) return '';
    const fields = Object.values(type.getFields());
    const chosen = fields.filter(() => this.chance(depth > 4 ? 0.2 : 0.45)).slice(0, 6);
    if (chosen.length === 0)
      chosen.push(
        fields.find((f) => isLeafType(getNamedType(f.type))) ?? (fields[0] as GraphQLField<unknown, unknown>),
      );
    const parts = chosen.flatMap((field) => this.fieldOf(type, field, joins, depth));
    const body = parts.length > 0 ? parts.join(' ') : '__typename';
    // Now and then wrapped in a named fragment, or an inline fragment without a type condition.
    if (this.chance(0.15)) {
      this.names += 1;
      const name = `F${this.names}`;
      this.fragments.push(`fragment ${name} on ${type.name} { ${body} }`);
      return `{ ...${name}${this.directive()} }`;
    }
    if (this.mayDefer && this.chance(0.2)) {
      this.deferrals += 1;
      return `{ __typename ... @defer { ${body} } }`;
    }
    return this.chance(0.1) ? `{ ...${this.directive()} { ${body} } }` : `{ ${body} }`;
  }

  private fieldOf(
    parent: GraphQLObjectType,
    field: GraphQLField<unknown, unknown>,
    joins: number,
    depth: number,
  ): string[] {
    const named = getNamedType(field.type);
    if (isLeafType(named)) return [`${this.alias()}${field.name}${this.directive()}`];
    // A join: Ref.node, or a reverse join (an agent's or a reservation's endpoints).
    const join = (parent.name === 'Ref' && field.name === 'node') || field.args.length > 0;
    if ((join && joins >= MAX_JOINS) || depth > 9) return [];
    return [
      `${this.alias()}${field.name}${this.args(field)}${this.directive()} ${this.selection(named, joins + (join ? 1 : 0), depth + 1)}`,
    ];
  }

  root(kind: 'query' | 'mutation'): string {
    if (kind === 'mutation') return this.mutation();
    const query = this.schema.getQueryType() as GraphQLObjectType;
    const count = 1 + Math.floor(this.random() * 3);
    const parts: string[] = [];
    const roots = Object.values(query.getFields());
    for (let i = 0; i < count; i += 1) {
      const field = this.pick(roots);
      parts.push(
        `${this.alias()}${field.name}${this.args(field)}${this.directive()} ${this.selection(getNamedType(field.type), 0, 1)}`,
      );
    }
    return `{ ${parts.join(' ')} }`;
  }

  private mutation(): string {
    const endpoint = this.pick(this.ids.endpoints);
    const route = this.pick(this.ids.routes);
    const result = this.schema.getMutationType()?.getFields().updateEndpoint?.type;
    const payload = result ? this.selection(getNamedType(result), 0, 1) : '{ __typename }';
    return this.pick([
      `{ updateEndpoint(input: { id: ${this.value('ID!', endpoint)}, description: "d" }) ${payload} }`,
      `{ deleteEndpoint(input: { id: "ep_${'Q'.repeat(27)}" }) { __typename } }`,
      `{ deleteHttpsEdgeRouteBackend(input: { edgeId: "${route.edgeId}", routeId: "${route.routeId}" }) { __typename } }`,
      `{ commandTunnelSession(input: { id: ${this.value('ID!', this.pick(this.ids.sessions))}, command: ${this.pick(['STOP', 'RESTART', 'UPDATE'])} }) { __typename } }`,
    ]);
  }

  document(kind: 'query' | 'mutation'): string {
    const body = this.root(kind);
    const defs = this.variableDefs.length > 0 ? `(${this.variableDefs.join(', ')})` : '';
    return `${kind} Generated${defs} ${body} ${this.fragments.join(' ')}`.trim();
  }
}

/** One random operation: a query, or now and then a mutation; a query now and then defers fragments. */
export function generateOperation(schema: GraphQLSchema, random: () => number, ids: IdPools): Generated {
  const kind = random() < 0.08 ? 'mutation' : 'query';
  const generator = new Generator(schema, random, ids, kind === 'query' && random() < 0.15);
  const query = generator.document(kind);
  return { query, variables: generator.variables, deferred: generator.deferrals > 0 };
}
