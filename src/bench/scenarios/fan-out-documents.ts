// Fan-out documents: fragments on the Node interface (and on concrete types) whose references join
// the next fragment, 2 to 8 hops deep, reused under aliases, some behind @skip/@include, under a
// list, `nodes` or a mutation's result union. Small to write, huge once expanded: what the
// expanded-size bound (gateway/limits/expanded-size.ts) refuses, or what is served. Seeded: the
// same `random` gives the same documents (the bench's row and the security tests share them).

/**
 * The references of each node type that can join a node, and its reverse joins (connections); no
 * name stands for two types in two of them (a document merging them would be invalid).
 */
const REFS: Readonly<Record<string, readonly string[]>> = {
  Endpoint: ['domain', 'tcpAddr', 'tunnel', 'tunnelSession', 'principal'],
  Tunnel: ['endpoint', 'backends'],
  TunnelSession: ['credential'],
  ReservedDomain: ['certificate'],
  ReservedAddress: [],
};
const REVERSE: Readonly<Record<string, readonly string[]>> = {
  TunnelSession: ['endpoints'],
  ReservedDomain: ['endpoints'],
  ReservedAddress: ['endpoints'],
};
const LEAVES: Readonly<Record<string, readonly string[]>> = {
  Endpoint: ['url', 'type', 'createdAt'],
  Tunnel: ['publicUrl', 'proto'],
  TunnelSession: ['os', 'agentVersion'],
  ReservedDomain: ['cnameTarget'],
  ReservedAddress: ['addr'],
};
const TYPES = Object.keys(REFS);

export interface FanOutDocument {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly hops: number;
}

/** Ids the roots use: a few of the account's, of any kind `nodes` serves. */
export interface FanOutIds {
  readonly nodeIds: readonly string[];
  /** An endpoint id that does not exist: the mutation root answers NotFoundError. */
  readonly missingEndpointId: string;
}

class Writer {
  private aliases = 0;
  private directives = 0;
  /** The variables the directives use. */
  readonly used = new Set<'on' | 'off'>();

  constructor(private readonly random: () => number) {}

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  some<T>(items: readonly T[], most: number): T[] {
    return items.filter(() => this.chance(Math.min(1, most / Math.max(1, items.length))));
  }

  /** A field name, aliased now and then (graphql-armor's alias limit is 15 a document). */
  named(field: string): string {
    if (this.aliases >= 6 || !this.chance(0.2)) return field;
    this.aliases += 1;
    return `a${this.aliases}: ${field}`;
  }

  /** A directive now and then (at most 4 a document: the limit is 10). */
  directive(): string {
    if (this.directives >= 4 || !this.chance(0.2)) return '';
    this.directives += 1;
    const on = this.chance(0.5);
    this.used.add(on ? 'on' : 'off');
    return on ? ' @include(if: $on)' : ' @skip(if: $off)';
  }
}

/** The selection joining fragment `next` through `field` of one node type. */
function join(w: Writer, field: string, next: string, reverse: boolean): string {
  const inner = reverse ? `nodes { ...${next} }` : `id node { ...${next} }`;
  const args = reverse ? `(first: ${w.int(1, 3)})` : '';
  return `${w.named(field)}${args}${w.directive()} { ${inner} }`;
}

/** Fragment L<level> on Node: an inline fragment per type, at least one of them joining the next level. */
function fragment(w: Writer, level: number, hops: number): string {
  const next = `L${level + 1}`;
  if (level === hops) return `fragment L${level} on Node { id }`;
  const typed = (type: string) => {
    const leaves = w.some(LEAVES[type] ?? [], 1).join(' ');
    const refs = w.some(REFS[type] ?? [], 3).flatMap((f) => {
      const once = join(w, f, next, false);
      return w.chance(0.3) ? [once, join(w, f, next, false)] : [once];
    });
    const reverse = w.some(REVERSE[type] ?? [], 0.5).map((f) => join(w, f, next, true));
    // The next level must be spread somewhere (an unused fragment is invalid): an endpoint joins it.
    if (type === 'Endpoint' && refs.length === 0) refs.push(`domain { id node { ...${next} } }`);
    return [leaves, ...refs, ...reverse].filter((s) => s !== '').join(' ');
  };
  const inline = TYPES.map((type) => `... on ${type} { ${typed(type) || '__typename'} }`).join(' ');
  return `fragment L${level} on Node { id ${inline} }`;
}

function root(w: Writer, ids: FanOutIds): { head: string; body: string } {
  const pick = w.int(0, 4);
  const first = w.int(1, 3);
  if (pick === 0) return { head: 'query', body: `endpoints(first: ${first}) { nodes { ...L1 } }` };
  if (pick === 1) return { head: 'query', body: `tunnels(first: ${first}) { nodes { ...L1 } }` };
  if (pick === 2) return { head: 'query', body: `tunnelSessions(first: ${first}) { nodes { ...L1 } }` };
  if (pick === 3) return { head: 'query', body: `nodes(ids: ${JSON.stringify(ids.nodeIds)}) { ...L1 }` };
  // A union: the result of a write to an endpoint that does not exist (NotFoundError, one call).
  return {
    head: 'mutation',
    body: `updateEndpoint(input: { id: "${ids.missingEndpointId}", description: "x" }) { ... on UpdateEndpointPayload { endpoint { ...L1 } } ... on Error { message } }`,
  };
}

/** `count` fan-out documents, 2 to 8 hops, from `random`. */
export function fanOutDocuments(random: () => number, ids: FanOutIds, count: number): FanOutDocument[] {
  return Array.from({ length: count }, () => {
    const w = new Writer(random);
    const hops = w.int(2, 8);
    const fragments = Array.from({ length: hops }, (_, i) => fragment(w, i + 1, hops));
    const { head, body } = root(w, ids);
    const used = [...w.used];
    const definitions = used.map((name) => `$${name}: Boolean!`).join(', ');
    const query = `${head} F${used.length > 0 ? `(${definitions})` : ''} { ${body} }\n${fragments.join('\n')}`;
    const variables = Object.fromEntries(used.map((name) => [name, w.chance(0.5)]));
    return { query, variables, hops };
  });
}
