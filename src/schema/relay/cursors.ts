// The cursors of the connections: opaque to clients; inside, the item id that the upstream's
// before_id takes, behind a prefix naming the connection's kind. A cursor this connection did not
// make is a BAD_USER_INPUT.
import { badInput } from '../../errors';
import { isIdOf } from '../../ids';
import type { NodeResource } from '../../resources';

export interface CursorCodec {
  encode(id: string): string;
  decode(cursor: string): string;
}

function cursorCodec(resource: NodeResource): CursorCodec {
  const prefix = `${resource.kind}:`;
  const encode = (id: string): string => Buffer.from(`${prefix}${id}`).toString('base64url');
  return {
    encode,
    decode(cursor) {
      const notOurs = badInput('after is not a cursor from this connection.');
      if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw notOurs;
      const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
      const id = decoded.slice(prefix.length);
      if (!decoded.startsWith(prefix) || !isIdOf(id, resource.kind) || encode(id) !== cursor) throw notOurs;
      return id;
    },
  };
}

const codecs = new Map<NodeResource, CursorCodec>();

/** The cursors of `resource`'s connections (`tunnel:tn_…`, base64url), made once per kind. */
export function cursorOf(resource: NodeResource): CursorCodec {
  let codec = codecs.get(resource);
  if (codec === undefined) {
    codec = cursorCodec(resource);
    codecs.set(resource, codec);
  }
  return codec;
}
