// Request bodies and answer readers the benchmark's scenarios share.

export const graphql = (query: string, variables?: Record<string, unknown>): string =>
  JSON.stringify(variables === undefined ? { query } : { query, variables });

export type Json = Record<string, unknown>;
export const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Json)[key] : undefined;

/** The `data` of a GraphQL answer with no errors, or why not. */
export function dataOf(status: number, json: unknown): Json | string {
  if (status !== 200) return `HTTP ${status}`;
  const errors = field(json, 'errors');
  if (errors !== undefined) return `errors: ${JSON.stringify(errors).slice(0, 300)}`;
  const data = field(json, 'data');
  return typeof data === 'object' && data !== null ? (data as Json) : 'no data';
}

export const lengthOf = (value: unknown): number => (Array.isArray(value) ? value.length : -1);
