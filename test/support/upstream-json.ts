// What the stand-in itself answers to a GET (with the test key), to compare the gateway's answers
// field by field with the upstream's JSON. Each read counts as a call on its route: read before
// resetting the counts.
import type { Stack } from './stack';
import { KEY } from './stack';

export type Json = Record<string, unknown>;

export async function upstreamJson(stack: Stack, path: string, key = KEY): Promise<Json> {
  const response = await fetch(`${stack.sandbox.url}${path}`, {
    headers: { Authorization: `Bearer ${key}`, 'Ngrok-Version': '2' },
  });
  return (await response.json()) as Json;
}

/** Every item of a list (one page of 100 is all the fixtures hold). */
export async function upstreamItems(stack: Stack, path: string, key = KEY): Promise<Json[]> {
  const page = await upstreamJson(stack, `${path}?limit=100`, key);
  const items = Object.values(page).find(Array.isArray);
  return (items ?? []) as Json[];
}

/** An optional text as the schema shows it: absent or "" is null. */
export const text = (v: unknown): unknown => (v === undefined || v === '' ? null : v);

/** name/value pairs from an object of string to string, sorted by name. */
export const pairs = (o: unknown): { name: string; value: string }[] =>
  Object.entries((o ?? {}) as Record<string, string>)
    .map(([name, value]) => ({ name, value }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
