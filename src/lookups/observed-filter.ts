// A list's `filter` tried on an observation's items as the upstream tries it on its own: the same CEL
// subset (resources/cel), against each item as the upstream's JSON spells it. The observation keeps
// items as the gateway read them (camelCase, references as { id, uri }), so each is seen through its
// upstream names (createdAt as created_at, tunnelSession.id as tunnel_session.id) once, and the view
// kept with the item. What the reader dropped (an empty string the upstream sends for "does not
// apply") is absent from the view: the gateway's own filters never ask for it.
import { type CelPredicate, compileCel } from '../resources/cel';

const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function upstreamView(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(upstreamView);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [snakeCase(key), upstreamView(v)]));
}

/** Views made so far: items are shared and never changed, so each is seen once. */
const views = new WeakMap<object, Record<string, unknown>>();

function viewOf(item: object): Record<string, unknown> {
  let view = views.get(item);
  if (view === undefined) {
    view = upstreamView(item) as Record<string, unknown>;
    views.set(item, view);
  }
  return view;
}

/** The top-level fields of `item` that hold lists, which a filter may not name (as upstream). */
const listFieldsOf = (item: object): ReadonlySet<string> =>
  new Set(
    Object.entries(viewOf(item))
      .filter(([, v]) => Array.isArray(v))
      .map(([key]) => key),
  );

/** The items of `items` that `filter` matches, in their order. */
export function filtered<T extends object>(items: readonly T[], filter: string): readonly T[] {
  const first = items[0];
  if (first === undefined) return items;
  const matches: CelPredicate = compileCel(filter, listFieldsOf(first));
  return items.filter((item) => matches(viewOf(item)));
}
