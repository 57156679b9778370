// The upstream's `filter` language (a CEL subset: upstream-contract.md, "Filtering"), read once and
// then tried on each item as `obj`. The stand-in filters its lists with it (sandbox/filter), and a
// live query's observation filters its lists the same way (lookups/observation-source.ts), so both
// give a filter the upstream's meaning.
import { checkFilter } from './check';
import { evaluate } from './evaluate';
import { parseFilter } from './parser';

export { FilterError } from './lexer';

/** Whether one item (as the upstream's JSON) matches. */
export type CelPredicate = (item: unknown) => boolean;

/**
 * A predicate for `source`, or a FilterError (parse error, or a list-valued field used) whose message
 * names the problem and its column. `listFields` are the item's top-level fields that hold lists.
 */
export function compileCel(source: string, listFields: ReadonlySet<string>): CelPredicate {
  const expr = parseFilter(source);
  checkFilter(expr, listFields);
  return (item) => evaluate(expr, item);
}
