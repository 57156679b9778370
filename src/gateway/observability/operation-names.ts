// Operation names come from clients, so they are bounded before they reach a metric label or a log
// line: a label takes only the first few distinct names of operations that validated (any other
// name folds into "other"), and a log field keeps a short, printable prefix.

/** Longest name kept as a label value or logged in full. */
const MAX_OPERATION_NAME_LENGTH = 64;
/** The label value of every name that is not (or no longer) given its own series. */
const OTHER_OPERATIONS = 'other';
/** The label value of an operation without a name (the Prometheus plugin's own convention). */
export const ANONYMOUS_OPERATION = 'Anonymous';

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** The set of operation names that have a series of their own, at most `max` of them. */
export class OperationNameLabels {
  private readonly admitted = new Set<string>();

  constructor(private readonly max: number) {}

  /** Called once an operation of this name validated: the name gets its own series while there is room. */
  admit(name: string | undefined): void {
    if (name === undefined || this.admitted.size >= this.max || this.admitted.has(name)) return;
    if (name.length <= MAX_OPERATION_NAME_LENGTH && GRAPHQL_NAME.test(name)) this.admitted.add(name);
  }

  /** The label value for a name: itself when admitted, "Anonymous" for none, else "other". */
  label(name: string | undefined | null): string {
    if (name === undefined || name === null || name === '' || name === ANONYMOUS_OPERATION) {
      return ANONYMOUS_OPERATION;
    }
    return this.admitted.has(name) ? name : OTHER_OPERATIONS;
  }

  /** How many names have a series of their own. */
  get size(): number {
    return this.admitted.size;
  }
}

/**
 * Client text for a log field: at most `max` characters, anything but printable ASCII replaced by
 * "?", and "..." appended when it was cut, so a line never carries control bytes or a huge value.
 */
export function loggable(value: string, max = MAX_OPERATION_NAME_LENGTH): string {
  const kept = value.slice(0, max).replace(/[^\x20-\x7e]/g, '?');
  return value.length > max ? `${kept}...` : kept;
}
