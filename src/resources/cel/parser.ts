// Recursive descent over the CEL subset, with CEL's precedence: `||` < `&&` < one comparison or
// `in` < unary `!` / `-` < member access `.` < literals, lists, parentheses, timestamp("...").
import { FilterError, type Token, tokenize } from './lexer';

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A timestamp("...") literal (a class, so a JSON object can never pass for one). */
export class Timestamp {
  constructor(readonly ms: number) {}
}

type Literal = string | number | boolean | null | Timestamp;

export type Expr =
  | { kind: 'literal'; value: Literal; column: number }
  | { kind: 'field'; path: string[]; column: number }
  | { kind: 'list'; items: Expr[]; column: number }
  | { kind: 'not'; operand: Expr; column: number }
  | { kind: 'logical'; op: '&&' | '||'; left: Expr; right: Expr; column: number }
  | { kind: 'compare'; op: CompareOp; left: Expr; right: Expr; column: number }
  | { kind: 'in'; item: Expr; list: Expr; column: number };

const COMPARE_OPS: readonly string[] = ['==', '!=', '<', '<=', '>', '>='];
// Deep enough for any real filter, shallow enough that `((((…` cannot exhaust the stack.
const MAX_DEPTH = 64;

/** Milliseconds of an RFC 3339 date-time, or NaN when the text is not one. */
export function rfc3339Time(text: string): number {
  return /^\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)$/.test(text)
    ? Date.parse(text)
    : Number.NaN;
}

function describe(token: Token): string {
  if (token.kind === 'end') return 'end of the filter';
  if (token.kind === 'string') {
    const shown = token.text.length > 24 ? `${token.text.slice(0, 24)}…` : token.text;
    return `string ${JSON.stringify(shown)}`;
  }
  return JSON.stringify(token.text);
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parse(): Expr {
    if (this.peek().kind === 'end') throw new FilterError('the filter is empty');
    const expr = this.parseOr();
    const rest = this.peek();
    if (rest.kind !== 'end') throw new FilterError(`unexpected ${describe(rest)} at column ${rest.column}`);
    return expr;
  }

  private peek(): Token {
    return this.tokens[this.index] ?? { kind: 'end', text: '', column: 0 };
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index += 1;
    return token;
  }

  private isOperator(text: string): boolean {
    const token = this.peek();
    return token.kind === 'operator' && token.text === text;
  }

  private expectOperator(text: string, context: string): void {
    const token = this.next();
    if (token.kind !== 'operator' || token.text !== text) {
      throw new FilterError(
        `expected "${text}" ${context} at column ${token.column} but found ${describe(token)}`,
      );
    }
  }

  private nested<T>(column: number, parse: () => T): T {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) throw new FilterError(`the filter nests too deeply at column ${column}`);
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  private parseOr(): Expr {
    return this.parseChain('||', () => this.parseAnd());
  }

  private parseAnd(): Expr {
    return this.parseChain('&&', () => this.parseRelation());
  }

  /** Operands joined by one logical operator, grouped from the left. */
  private parseChain(op: '||' | '&&', operand: () => Expr): Expr {
    let left = operand();
    while (this.isOperator(op)) {
      const { column } = this.next();
      left = { kind: 'logical', op, left, right: operand(), column };
    }
    return left;
  }

  private parseRelation(): Expr {
    const left = this.parseUnary();
    const token = this.peek();
    let relation: Expr | undefined;
    if (token.kind === 'operator' && COMPARE_OPS.includes(token.text)) {
      this.next();
      const op = token.text as CompareOp;
      relation = { kind: 'compare', op, left, right: this.parseUnary(), column: token.column };
    } else if (token.kind === 'ident' && token.text === 'in') {
      this.next();
      relation = { kind: 'in', item: left, list: this.parseUnary(), column: token.column };
    }
    if (relation === undefined) return left;
    const after = this.peek();
    if (
      (after.kind === 'operator' && COMPARE_OPS.includes(after.text)) ||
      (after.kind === 'ident' && after.text === 'in')
    ) {
      throw new FilterError(
        `comparisons cannot be chained (column ${after.column}); join them with && or ||`,
      );
    }
    return relation;
  }

  private parseUnary(): Expr {
    const token = this.peek();
    if (this.isOperator('!')) {
      this.next();
      return this.nested(token.column, () => ({
        kind: 'not',
        operand: this.parseUnary(),
        column: token.column,
      }));
    }
    if (this.isOperator('-')) {
      this.next();
      const number = this.next();
      if (number.kind !== 'number') {
        throw new FilterError(`"-" at column ${token.column} must be followed by a number`);
      }
      return { kind: 'literal', value: -Number(number.text), column: token.column };
    }
    return this.parsePrimary();
  }

  private parsePrimary(): Expr {
    const token = this.next();
    const { column } = token;
    if (token.kind === 'string') return { kind: 'literal', value: token.text, column };
    if (token.kind === 'number') return { kind: 'literal', value: Number(token.text), column };
    if (token.kind === 'operator' && token.text === '(') {
      const inner = this.nested(column, () => this.parseOr());
      this.expectOperator(')', `to close the "(" of column ${column}`);
      return inner;
    }
    if (token.kind === 'operator' && token.text === '[')
      return this.nested(column, () => this.parseList(column));
    if (token.kind === 'ident') return this.parseName(token);
    throw new FilterError(`unexpected ${describe(token)} at column ${column}`);
  }

  private parseList(column: number): Expr {
    const items: Expr[] = [];
    while (!this.isOperator(']')) {
      items.push(this.parseOr());
      if (!this.isOperator(',')) break;
      this.next();
    }
    this.expectOperator(']', `to close the list of column ${column}`);
    return { kind: 'list', items, column };
  }

  private parseName(token: Token): Expr {
    const { text, column } = token;
    if (text === 'true' || text === 'false') return { kind: 'literal', value: text === 'true', column };
    if (text === 'null') return { kind: 'literal', value: null, column };
    if (text === 'timestamp') return this.parseTimestamp(column);
    if (text === 'obj') {
      const path: string[] = [];
      while (this.isOperator('.')) {
        this.next();
        const field = this.next();
        if (field.kind !== 'ident') {
          throw new FilterError(
            `expected a field name at column ${field.column} but found ${describe(field)}`,
          );
        }
        path.push(field.text);
      }
      if (path.length === 0) throw new FilterError(`"obj" at column ${column} needs a field: obj.<field>`);
      return { kind: 'field', path, column };
    }
    if (this.isOperator('(')) throw new FilterError(`unknown function "${text}" at column ${column}`);
    throw new FilterError(`unknown name "${text}" at column ${column}; fields are read as obj.<field>`);
  }

  private parseTimestamp(column: number): Expr {
    this.expectOperator('(', 'after timestamp');
    const argument = this.next();
    if (argument.kind !== 'string') {
      throw new FilterError(`timestamp() at column ${column} takes one string, found ${describe(argument)}`);
    }
    this.expectOperator(')', `to close timestamp( of column ${column}`);
    const time = rfc3339Time(argument.text);
    if (Number.isNaN(time)) {
      throw new FilterError(
        `timestamp() at column ${column} needs an RFC 3339 date such as "2026-01-01T00:00:00Z", got ${JSON.stringify(argument.text)}`,
      );
    }
    return { kind: 'literal', value: new Timestamp(time), column };
  }
}

/** The syntax tree of a filter, or a FilterError naming what is wrong and where. */
export function parseFilter(source: string): Expr {
  return new Parser(tokenize(source)).parse();
}
