// Evaluation against one item as `obj`. JSON has no dates, so a string meets a timestamp() as the
// date it spells. A field the item lacks is absent: it equals only null, orders against nothing,
// and a non-boolean where a condition is expected counts as false (its negation too).
import { type CompareOp, type Expr, rfc3339Time, Timestamp } from './parser';

const ABSENT = Symbol('absent');
type Value = unknown;

function fieldValue(item: unknown, path: readonly string[]): Value {
  let current: unknown = item;
  for (const name of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return ABSENT;
    if (!Object.hasOwn(current, name)) return ABSENT;
    current = (current as Record<string, unknown>)[name];
  }
  return current === undefined ? ABSENT : current;
}

/** Milliseconds of a timestamp, or of a string that is an RFC 3339 date; undefined otherwise. */
function timeOf(value: Value): number | undefined {
  if (value instanceof Timestamp) return value.ms;
  if (typeof value !== 'string') return undefined;
  const ms = rfc3339Time(value);
  return Number.isNaN(ms) ? undefined : ms;
}

function equal(a: Value, b: Value): boolean {
  const left = a === ABSENT ? null : a;
  const right = b === ABSENT ? null : b;
  if (left instanceof Timestamp || right instanceof Timestamp) {
    const [x, y] = [timeOf(left), timeOf(right)];
    return x !== undefined && x === y;
  }
  const primitive = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  return primitive(left) && left === right;
}

/** Negative, zero or positive; undefined when the two values have no order. */
function order(a: Value, b: Value): number | undefined {
  if (a instanceof Timestamp || b instanceof Timestamp) {
    const [x, y] = [timeOf(a), timeOf(b)];
    return x === undefined || y === undefined ? undefined : x - y;
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

function compare(op: CompareOp, a: Value, b: Value): boolean {
  if (op === '==') return equal(a, b);
  if (op === '!=') return !equal(a, b);
  const sign = order(a, b);
  if (sign === undefined) return false;
  if (op === '<') return sign < 0;
  if (op === '<=') return sign <= 0;
  if (op === '>') return sign > 0;
  return sign >= 0;
}

function valueIn(expr: Expr, item: unknown): Value {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'field':
      return fieldValue(item, expr.path);
    case 'list':
      return expr.items.map((entry) => valueIn(entry, item));
    case 'not': {
      const operand = valueIn(expr.operand, item);
      return operand === false;
    }
    case 'logical':
      return expr.op === '&&'
        ? valueIn(expr.left, item) === true && valueIn(expr.right, item) === true
        : valueIn(expr.left, item) === true || valueIn(expr.right, item) === true;
    case 'compare':
      return compare(expr.op, valueIn(expr.left, item), valueIn(expr.right, item));
    case 'in': {
      const needle = valueIn(expr.item, item);
      const list = valueIn(expr.list, item);
      return Array.isArray(list) && list.some((entry) => equal(needle, entry));
    }
  }
}

/** True when the item matches; anything but a boolean true is no match. */
export function evaluate(expr: Expr, item: unknown): boolean {
  return valueIn(expr, item) === true;
}
