// The upstream's `filter` for GET /endpoints: a CEL expression built from a structured filter. Every
// value a client gives is a quoted, escaped string literal, never spliced into the expression, so a
// URL such as `" || true || "` is data that matches nothing (cel.ts).
import { anyOf, celString } from './cel';

/** Every set field must match (AND); a list matches any of its values (OR). */
export interface EndpointFilterSpec {
  /** The upstream's type strings (agent, cloud). */
  readonly types?: readonly string[];
  readonly urls?: readonly string[];
  readonly ids?: readonly string[];
  /** RFC 3339: endpoints created at or after this instant. */
  readonly createdAfter?: string;
}

/** True when some list in the filter is empty: nothing can match, and no call is needed. */
export const matchesNothing = (filter: EndpointFilterSpec): boolean =>
  [filter.types, filter.urls, filter.ids].some((list) => list !== undefined && list.length === 0);

/** The expression, or undefined when the filter sets nothing (the plain list). */
export function compileEndpointFilter(filter: EndpointFilterSpec): string | undefined {
  const terms: string[] = [];
  if (filter.ids !== undefined) terms.push(anyOf('id', filter.ids));
  if (filter.types !== undefined) terms.push(anyOf('type', filter.types));
  if (filter.urls !== undefined) terms.push(anyOf('url', filter.urls));
  if (filter.createdAfter !== undefined)
    terms.push(`obj.created_at >= timestamp(${celString(filter.createdAfter)})`);
  return terms.length === 0 ? undefined : terms.join(' && ');
}
