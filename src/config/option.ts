// One setting: its variable, its help line, its default and how its text is read.
import type { Parser } from './parsers';

export interface Option<T> {
  /** The environment variable; the flag is its kebab-case form (PORT -> --port). */
  readonly env: string;
  readonly help: string;
  readonly default: T;
  /** How --help and the README show the default, when the value alone does not say it. */
  readonly defaultText?: string;
  readonly parse: Parser<T>;
}

export const option = <T>(o: Option<T>): Option<T> => o;

export const unset = <T>(o: Omit<Option<T | undefined>, 'default'>): Option<T | undefined> => ({
  ...o,
  default: undefined,
});
