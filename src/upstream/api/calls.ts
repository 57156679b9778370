// The three ways a resource calls the upstream with the caller's API key, each reading the answer
// into the domain's shape: a read; a read of one item, where a 404 is no such item (null); and a
// write, whose failures the resource turns into its domain errors; `writing` declares a write from
// its request, parser and refusals. The parser goes with the call: the
// answer is read into its domain shape as soon as its JSON is parsed (exchange/exchange.ts), and identical
// reads in flight with the same parser share that one answer (the coalesce stage).
import { UpstreamError } from '../../errors';
import { shapedBy, type UpstreamRequest, type UpstreamResponse } from '../call/request';
import type { UpstreamKey } from '../call/upstream-key';
import type { UpstreamTransport } from '../transport';

/** The answer in `parse`'s shape: read as it was parsed (or once here), shared by joined callers. */
function readOnce<T>(response: UpstreamResponse, parse: (json: unknown) => T): T {
  let shaped = response.shaped;
  if (shaped?.parse !== parse) {
    shaped = shapedBy(parse, response.json);
    response.shaped = shaped;
  }
  if (shaped.failure) throw shaped.failure.error;
  return shaped.value as T;
}

export async function read<T>(
  transport: UpstreamTransport,
  key: UpstreamKey,
  request: UpstreamRequest,
  parse: (json: unknown) => T,
): Promise<T> {
  const response = await transport.send(key, request, parse);
  return readOnce(response, parse);
}

export async function readOrNull<T>(
  transport: UpstreamTransport,
  key: UpstreamKey,
  request: UpstreamRequest,
  parse: (json: unknown) => T,
): Promise<T | null> {
  try {
    return await read(transport, key, request, parse);
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return null;
    throw error;
  }
}

/** `refused` maps any failure: to a domain error when it is an expected refusal, else to itself. */
async function write<T>(
  transport: UpstreamTransport,
  key: UpstreamKey,
  request: UpstreamRequest,
  parse: (json: unknown) => T,
  refused: (error: unknown) => unknown,
): Promise<T> {
  try {
    return await read(transport, key, request, parse);
  } catch (error) {
    throw refused(error);
  }
}

/** A resource's call, as the client runs it with its transport and key. */
type Call<A extends unknown[], T> = (
  transport: UpstreamTransport,
  key: UpstreamKey,
  ...args: A
) => Promise<T>;

/** A write: its request, its parser, and its refusals as domain errors (told the call's arguments). */
export const writing =
  <A extends unknown[], T>(
    request: (...args: A) => UpstreamRequest,
    parse: (json: unknown) => T,
    refused: (error: unknown, ...args: A) => unknown,
  ): Call<A, T> =>
  (transport, key, ...args) =>
    write(transport, key, request(...args), parse, (error) => refused(error, ...args));
