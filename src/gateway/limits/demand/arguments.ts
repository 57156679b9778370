// The list arguments the planner counts with, checked before they count: a value out of its
// documented range is BAD_USER_INPUT at its field (ArgumentRefusal), never a number a plan uses.
import { badInput, type GatewayError } from '../../../errors';
import { checkedFirst } from '../../../schema/relay/forward-connection';

/** A list argument out of its documented range: BAD_USER_INPUT at the field that has it. */
export class ArgumentRefusal extends Error {
  constructor(
    readonly error: GatewayError,
    readonly path: readonly string[],
  ) {
    super(error.message);
  }
}

/** `first` of a page, checked as the connection checks it (schema/relay/forward-connection.ts). */
export const firstOf = (args: Record<string, unknown>): number => checkedFirst(args.first);

/** The ids of a lookup's argument, its length checked: a list of at most `most`, or one id. */
export function idsOf(args: Record<string, unknown>, arg: string, most: number | undefined): string[] {
  const given = args[arg];
  if (!Array.isArray(given)) return typeof given === 'string' ? [given] : [];
  if (most !== undefined && given.length > most)
    throw badInput(`${arg} takes at most ${most} ids, got ${given.length}.`);
  return given.filter((id): id is string => typeof id === 'string');
}
