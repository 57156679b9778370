// What every resource's read of one item does: send it with the caller's credential, read the answer
// into the domain's shape; a 404 is no such item (null), not an error.
import { UpstreamError } from '../../errors';
import type { ApiCredential } from '../http/credential';
import type { UpstreamRequest } from '../http/request';
import type { UpstreamTransport } from '../transport';

export async function readOrNull<T>(
  transport: UpstreamTransport,
  credential: ApiCredential,
  request: UpstreamRequest,
  parse: (json: unknown) => T,
): Promise<T | null> {
  try {
    const response = await transport.send(credential, request);
    return parse(response.json);
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return null;
    throw error;
  }
}
