// The three ways a resource calls the upstream with the caller's API key, each reading the answer
// into the domain's shape: a read; a read of one item, where a 404 is no such item (null); and a
// write, whose failures the resource turns into its domain errors. Identical reads in flight share
// one answer (the coalesce stage): it is read into its domain shape once, and every caller gets that.
import { UpstreamError } from '../../errors';
import type { UpstreamRequest, UpstreamResponse } from '../http/request';
import type { UpstreamKey } from '../http/upstream-key';
import type { UpstreamTransport } from '../transport';

/** `parse(response.json)`, once per answer and reader: callers that joined one call share the value. */
function readOnce<T>(response: UpstreamResponse, parse: (json: unknown) => T): T {
  const known = response.shaped;
  if (known?.parse === parse) return known.value as T;
  const value = parse(response.json);
  response.shaped = { parse, value };
  return value;
}

export async function read<T>(
  transport: UpstreamTransport,
  key: UpstreamKey,
  request: UpstreamRequest,
  parse: (json: unknown) => T,
): Promise<T> {
  const response = await transport.send(key, request);
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
export async function write<T>(
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
