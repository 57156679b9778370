// Tokens of the CEL subset the API's `filter` parameter takes. Positions are 1-based columns so
// that an error message can point at the character a person would count to.

type TokenKind = 'ident' | 'string' | 'number' | 'operator' | 'end';

export interface Token {
  kind: TokenKind;
  /** The source text of the token (for a string, its decoded value). */
  text: string;
  column: number;
}

/** A filter the API cannot read; `message` names the problem and its column. */
export class FilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FilterError';
  }
}

// Longest first, so `<=` is not read as `<` then `=`.
const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '(', ')', '[', ']', ',', '.', '-'];
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
};

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /\d+(\.\d+)?/y;

function matchAt(pattern: RegExp, source: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(source);
}

function readString(source: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  while (i < source.length) {
    const char = source[i] ?? '';
    if (char === '"') return { value, end: i + 1 };
    if (char === '\n' || char === '\r') break;
    if (char !== '\\') {
      value += char;
      i += 1;
      continue;
    }
    const next = source[i + 1];
    if (next === 'u') {
      const hex = source.slice(i + 2, i + 6);
      if (!/^[0-9A-Fa-f]{4}$/.test(hex)) {
        throw new FilterError(`bad \\u escape at column ${i + 1}: expected 4 hex digits`);
      }
      value += String.fromCharCode(Number.parseInt(hex, 16));
      i += 6;
      continue;
    }
    const decoded = next === undefined ? undefined : ESCAPES[next];
    if (decoded === undefined) {
      throw new FilterError(`unknown escape \\${next ?? ''} at column ${i + 1}`);
    }
    value += decoded;
    i += 2;
  }
  throw new FilterError(`unterminated string starting at column ${start + 1}`);
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i] ?? '';
    if (/\s/.test(char)) {
      i += 1;
      continue;
    }
    const column = i + 1;
    if (char === '"') {
      const { value, end } = readString(source, i);
      tokens.push({ kind: 'string', text: value, column });
      i = end;
      continue;
    }
    const ident = matchAt(IDENT, source, i);
    if (ident) {
      tokens.push({ kind: 'ident', text: ident[0], column });
      i += ident[0].length;
      continue;
    }
    const number = matchAt(NUMBER, source, i);
    if (number) {
      tokens.push({ kind: 'number', text: number[0], column });
      i += number[0].length;
      continue;
    }
    const operator = OPERATORS.find((op) => source.startsWith(op, i));
    if (operator === undefined) {
      throw new FilterError(`unexpected character ${JSON.stringify(char)} at column ${column}`);
    }
    tokens.push({ kind: 'operator', text: operator, column });
    i += operator.length;
  }
  tokens.push({ kind: 'end', text: '', column: source.length + 1 });
  return tokens;
}
