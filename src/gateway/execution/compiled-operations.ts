// Which operations run compiled, and the compiled ones kept, within bounds on what compiling may
// cost (measured: graphql-jit's compile takes about 40 µs and 25 KB of transient heap per expanded
// field, 0.2 to 0.6 KB of it kept). An operation compiles only when it is a query without @defer or
// @stream that expands to at most COMPILE_MAX_FIELDS fields (limits/expanded-size.ts), and only on
// its second run: a document sent once is never worth compiling. The compiled ones are kept least
// recently used first out, within KEPT_FIELDS expanded fields in all (a few MB), so distinct
// documents cannot fill the heap; one dropped compiles again only after as many runs as at first.
import { BREAK, type DocumentNode, type GraphQLSchema, getOperationAST, visit } from 'graphql';
import { LRUCache } from 'lru-cache';
import { expandedSize } from '../limits/expanded-size';

const COMPILE_MAX_FIELDS = 250;
const COMPILE_ON_RUN = 2;
const KEPT_FIELDS = 20_000;
/** What a small compiled operation keeps anyway, in expanded fields. */
const KEPT_AT_LEAST = 20;

/** One operation of one document: how often it ran, and how large it is. */
interface Slot {
  runs: number;
  readonly size: number;
  readonly interpreted: boolean;
}

/** True when the document asks for incremental delivery anywhere (its fragments included). */
function isIncremental(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (node.name.value !== 'defer' && node.name.value !== 'stream') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/** The compiled operations of one gateway, `compile` making each (undefined: it cannot). */
export class CompiledOperations<C extends object> {
  static readonly COMPILE_MAX_FIELDS = COMPILE_MAX_FIELDS;
  static readonly KEPT_FIELDS = KEPT_FIELDS;

  // A slot lives as long as its document (yoga's parse cache keeps one per distinct query text).
  private readonly slots = new WeakMap<DocumentNode, Map<string | undefined, Slot>>();
  private readonly kept = new LRUCache<Slot, C | typeof CANNOT>({
    max: KEPT_FIELDS / KEPT_AT_LEAST,
    maxSize: KEPT_FIELDS,
    sizeCalculation: (_compiled, slot) => slot.size,
    dispose: (_compiled, slot) => {
      slot.runs = 0;
    },
  });

  constructor(
    private readonly compile: (schema: GraphQLSchema, document: DocumentNode, name?: string) => C | undefined,
  ) {}

  /** The compiled operation to run, or undefined: run it interpreted. */
  for(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): C | undefined {
    const slot = this.slotOf(schema, document, operationName);
    if (slot.interpreted) return undefined;
    const known = this.kept.get(slot);
    if (known !== undefined) return known === CANNOT ? undefined : (known as C);
    slot.runs += 1;
    if (slot.runs < COMPILE_ON_RUN) return undefined;
    const compiled = this.compile(schema, document, operationName);
    this.kept.set(slot, compiled ?? CANNOT);
    return compiled;
  }

  /** Expanded fields the kept compiled operations stand for. */
  keptFields(): number {
    return this.kept.calculatedSize;
  }

  private slotOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): Slot {
    let byName = this.slots.get(document);
    if (!byName) {
      byName = new Map();
      this.slots.set(document, byName);
    }
    let slot = byName.get(operationName);
    if (!slot) {
      const size = Math.max(KEPT_AT_LEAST, expandedSize(schema, document));
      const isQuery = getOperationAST(document, operationName)?.operation === 'query';
      slot = { runs: 0, size, interpreted: !isQuery || size > COMPILE_MAX_FIELDS || isIncremental(document) };
      byName.set(operationName, slot);
    }
    return slot;
  }
}

/** Kept for an operation graphql-jit cannot compile: it runs interpreted, and is not tried again. */
const CANNOT = Object.freeze({ cannot: true });
