// Network pieces between the gateway and its upstream: a port nothing listens on, a counting TCP relay,
// and an HTTP proxy that notes what each request carried.
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net';

/** A port on loopback that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A TCP relay to `target` that counts connections and notes which side closed each first. */
export interface Relay {
  url: string;
  connections: number;
  /** Connections whose client (the gateway) ended them first. */
  closedByClient: number;
  close(): Promise<void>;
}

export async function startRelay(target: string): Promise<Relay> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const relay: Relay = {
    url: '',
    connections: 0,
    closedByClient: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createTcpServer((client) => {
    relay.connections += 1;
    let upstreamEnded = false;
    const remote = connect(Number(port), hostname);
    sockets.add(client);
    sockets.add(remote);
    client.pipe(remote);
    remote.pipe(client);
    remote.on('end', () => {
      upstreamEnded = true;
    });
    client.on('end', () => {
      if (!upstreamEnded) relay.closedByClient += 1;
    });
    const drop = () => {
      client.destroy();
      remote.destroy();
      sockets.delete(client);
      sockets.delete(remote);
    };
    client.on('error', drop);
    remote.on('error', drop);
    client.on('close', drop);
    remote.on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return relay;
}

/** One request as an HTTP proxy saw it on its way upstream. */
interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** An HTTP proxy to a target set later (`target`), noting every request's method, path and headers. */
export interface RecordingProxy {
  url: string;
  target: string;
  readonly requests: ProxiedRequest[];
  close(): Promise<void>;
}

export async function startRecordingProxy(): Promise<RecordingProxy> {
  const proxy: RecordingProxy = {
    url: '',
    target: '',
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createHttpServer((req, res) => {
    proxy.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: { ...req.headers } });
    const forward = httpRequest(
      `${proxy.target}${req.url ?? ''}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
