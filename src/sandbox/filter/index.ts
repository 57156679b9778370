// The `filter` query parameter: the upstream's CEL subset (resources/cel), read once per request,
// then tried on each item.
import { type CelPredicate, compileCel, FilterError } from '../../resources/cel';
import { apiError } from '../api/errors';

/** A list request's `filter`: none when absent or blank (it filters nothing), a 400 ERR_NGROK_250 when bad. */
export function filterParam(
  query: URLSearchParams,
  listFields: ReadonlySet<string>,
): CelPredicate | undefined {
  const source = query.get('filter');
  if (source === null || source.trim() === '') return undefined;
  try {
    return compileCel(source, listFields);
  } catch (error) {
    if (error instanceof FilterError) throw apiError('ERR_NGROK_250', { DETAIL: error.message });
    throw error;
  }
}
