// The cursors of the connections: opaque to clients; inside, the item id that the upstream's
// before_id takes, behind a prefix naming the connection. A cursor this connection did not make is
// a BAD_USER_INPUT.
import { badInput } from '../../errors';
import { type IdKind, isIdOf } from '../../ids';

export interface CursorCodec {
  encode(id: string): string;
  decode(cursor: string): string;
}

function cursorCodec(prefix: string, kind: IdKind): CursorCodec {
  const encode = (id: string): string => Buffer.from(`${prefix}${id}`).toString('base64url');
  return {
    encode,
    decode(cursor) {
      const notOurs = badInput('after is not a cursor from this connection.');
      if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw notOurs;
      const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
      const id = decoded.slice(prefix.length);
      if (!decoded.startsWith(prefix) || !isIdOf(id, kind) || encode(id) !== cursor) throw notOurs;
      return id;
    },
  };
}

export const TUNNEL_CURSOR = cursorCodec('tunnel:', 'tunnel');
export const ENDPOINT_CURSOR = cursorCodec('endpoint:', 'endpoint');
export const TUNNEL_SESSION_CURSOR = cursorCodec('tunnelSession:', 'tunnelSession');
export const RESERVED_DOMAIN_CURSOR = cursorCodec('reservedDomain:', 'reservedDomain');
export const RESERVED_ADDRESS_CURSOR = cursorCodec('reservedAddress:', 'reservedAddress');
