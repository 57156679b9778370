// The WebSocket class of the gateway's graphql-ws sockets: a frame whose write fails (the peer reset
// the connection, the socket is already destroyed) is dropped, and its send ends without an error.
// graphql-ws's ws binding would turn such a failure into an "internal error", printed to the console
// with its stack (for a connection_ack, a pong or a query's result); the socket's close, which the
// failure brings, ends the connection's operations in any case.
import { WebSocket } from 'ws';

type SendCallback = (error?: Error) => void;
type SendOptions = Exclude<Parameters<WebSocket['send']>[1], SendCallback | undefined>;

export class DroppingWebSocket extends WebSocket {
  override send(
    data: Parameters<WebSocket['send']>[0],
    optionsOrDone?: SendOptions | SendCallback,
    done?: SendCallback,
  ): void {
    const callback = typeof optionsOrDone === 'function' ? optionsOrDone : done;
    const options = typeof optionsOrDone === 'function' ? {} : (optionsOrDone ?? {});
    super.send(data, options, callback && (() => callback()));
  }
}
