// The cursor of the tunnels connection: opaque to clients; inside, the tunnel id that the upstream's
// before_id takes. A cursor this connection did not make is a BAD_USER_INPUT.
import { badInput } from '../errors';
import { isIdOf } from '../ids';

const CURSOR_PREFIX = 'tunnel:';

export const encodeCursor = (id: string): string =>
  Buffer.from(`${CURSOR_PREFIX}${id}`).toString('base64url');

export function decodeCursor(cursor: string): string {
  const notOurs = badInput('after is not a cursor from this connection.');
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw notOurs;
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = decoded.slice(CURSOR_PREFIX.length);
  if (!decoded.startsWith(CURSOR_PREFIX) || !isIdOf(id, 'tunnel') || encodeCursor(id) !== cursor)
    throw notOurs;
  return id;
}
