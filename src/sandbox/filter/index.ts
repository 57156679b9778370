// The `filter` query parameter: a CEL subset read once per request, then tried on each item.
import { apiError } from '../api/errors';
import { checkFilter } from './check';
import { evaluate } from './evaluate';
import { FilterError } from './lexer';
import { parseFilter } from './parser';

type Predicate = (item: unknown) => boolean;

/**
 * A predicate for `source`, or a FilterError (parse error, or a list-valued field used) whose message
 * names the problem and its column. `listFields` are the item's top-level fields that hold lists.
 */
function compileFilter(source: string, listFields: ReadonlySet<string>): Predicate {
  const expr = parseFilter(source);
  checkFilter(expr, listFields);
  return (item) => evaluate(expr, item);
}

/** A list request's `filter`: none when absent or blank (it filters nothing), a 400 ERR_NGROK_250 when bad. */
export function filterParam(query: URLSearchParams, listFields: ReadonlySet<string>): Predicate | undefined {
  const source = query.get('filter');
  if (source === null || source.trim() === '') return undefined;
  try {
    return compileFilter(source, listFields);
  } catch (error) {
    if (error instanceof FilterError) throw apiError('ERR_NGROK_250', { DETAIL: error.message });
    throw error;
  }
}
