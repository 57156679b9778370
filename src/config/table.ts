// Every setting of the gateway, grouped by the code that uses it (one section each, defined in
// sections/). The types, the defaults, --help, the README's configuration table and the validation all
// derive from this one table.
import type { Option } from './option';
import { log, metrics, readiness } from './sections/operations';
import { access, limits, persisted } from './sections/requests';
import { server } from './sections/server';
import { cache, live, redis } from './sections/state';
import { tracing } from './sections/tracing';
import { upstream } from './sections/upstream';

export type { Option } from './option';

const TABLE = {
  server,
  upstream,
  limits,
  access,
  metrics,
  log,
  tracing,
  persisted,
  readiness,
  cache,
  live,
  redis,
};

type Table = typeof TABLE;
type ValueOf<O> = O extends Option<infer T> ? T : never;

/** The whole configuration: one read-only section per room of the gateway. */
export type Config = {
  readonly [S in keyof Table]: { readonly [K in keyof Table[S]]: ValueOf<Table[S][K]> };
};

/** Every option with its section and key, in table order (help, README, parsing). */
export const OPTIONS: readonly (Option<unknown> & { section: string; key: string })[] = Object.entries(
  TABLE,
).flatMap(([section, options]) =>
  Object.entries(options as Record<string, Option<unknown>>).map(([key, o]) => ({ ...o, section, key })),
);

/** How a default is shown in --help and the README. */
export const defaultTextOf = (o: Option<unknown>): string =>
  o.defaultText ?? (o.default === undefined ? 'unset' : String(o.default));
