// Checks that need no item: what the API refuses before it reads a single one, so an invalid
// filter is a 400 even on an empty account.
import { FilterError } from './lexer';
import type { Expr } from './parser';

function kindOf(expr: Expr): string {
  if (expr.kind === 'list') return 'a list';
  if (expr.kind !== 'literal') return 'an expression';
  const { value } = expr;
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return 'a timestamp';
}

/** Where a true/false is needed: comparisons, `in`, `!`, `&&`, `||`, a field or a boolean literal. */
function checkCondition(expr: Expr): void {
  const condition =
    expr.kind === 'compare' ||
    expr.kind === 'in' ||
    expr.kind === 'logical' ||
    expr.kind === 'not' ||
    expr.kind === 'field' ||
    (expr.kind === 'literal' && typeof expr.value === 'boolean');
  if (!condition) {
    throw new FilterError(`expected a condition at column ${expr.column} but found ${kindOf(expr)}`);
  }
}

function checkNode(expr: Expr, listFields: ReadonlySet<string>): void {
  switch (expr.kind) {
    case 'literal':
      return;
    case 'field': {
      const [top] = expr.path;
      if (top !== undefined && listFields.has(top)) {
        throw new FilterError(
          `obj.${expr.path.join('.')} at column ${expr.column} is a list; list-valued fields cannot be filtered`,
        );
      }
      return;
    }
    case 'list':
      throw new FilterError(`a list at column ${expr.column} can only follow "in"`);
    case 'not':
      checkCondition(expr.operand);
      checkNode(expr.operand, listFields);
      return;
    case 'logical':
      for (const side of [expr.left, expr.right]) {
        checkCondition(side);
        checkNode(side, listFields);
      }
      return;
    case 'compare':
      checkNode(expr.left, listFields);
      checkNode(expr.right, listFields);
      return;
    case 'in':
      checkNode(expr.item, listFields);
      if (expr.list.kind !== 'list') {
        if (expr.list.kind === 'field') checkNode(expr.list, listFields);
        throw new FilterError(`"in" at column ${expr.column} needs a list such as ["a", "b"]`);
      }
      for (const item of expr.list.items) {
        if (item.kind !== 'literal') {
          throw new FilterError(`list items must be values; column ${item.column} is not one`);
        }
      }
      return;
  }
}

/** Throws a FilterError for a filter that parses but cannot be evaluated. */
export function checkFilter(expr: Expr, listFields: ReadonlySet<string>): void {
  checkCondition(expr);
  checkNode(expr, listFields);
}
