// Global ids are the upstream's ids; the type comes from the prefix (tn_ → Tunnel, ep_ → Endpoint).
import { badInput } from '../errors';
import { kindOf, quote } from '../ids';

const TYPENAME_BY_KIND: Partial<Record<string, string>> = { tunnel: 'Tunnel', endpoint: 'Endpoint' };

/** Malformed ids are BAD_USER_INPUT; a well-formed id of a type the schema does not hold gets a non-type name. */
export function decodeNodeId(globalID: string): { typename: string; id: string } {
  const kind = kindOf(globalID);
  if (kind === null)
    throw badInput(
      `${quote(globalID)} is not an ngrok id (expected a prefix such as tn_ and letters or digits).`,
    );
  return { typename: TYPENAME_BY_KIND[kind] ?? `unsupported:${kind}`, id: globalID };
}
