// The `filter` query parameter: a CEL subset read once per request, then tried on each item.
import { checkFilter } from './check';
import { evaluate } from './evaluate';
import { parseFilter } from './parser';

export { FilterError } from './lexer';

export type Predicate = (item: unknown) => boolean;

/**
 * A predicate for `source`, or a FilterError (parse error, or a list-valued field used) whose message
 * names the problem and its column. `listFields` are the item's top-level fields that hold lists.
 */
export function compileFilter(source: string, listFields: ReadonlySet<string>): Predicate {
  const expr = parseFilter(source);
  checkFilter(expr, listFields);
  return (item) => evaluate(expr, item);
}
