// startSandbox: the node:http server and the Sandbox handle tests hold. A request is matched,
// counted, given its queued fault and latency, admitted (auth, version, limits), then run.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MINUTE_MS } from '../../time';
import { allItems } from '../account-graph/operations';
import { authenticate, bearerToken, isCredentialShaped } from '../admission/auth';
import { ConcurrencyCap, RateLimiter } from '../admission/limits';
import { checkVersion } from '../admission/version';
import { ApiError, internalError, notFound } from '../api/errors';
import { matchRoute, type RouteMatch, splitTarget } from '../api/routes';
import { freshEndpointInput } from '../endpoints/data';
import { allEndpoints } from '../endpoints/operations';
import { createCloudEndpoint, touchCloudEndpoint } from '../endpoints/writes';
import { freshTunnel, startChurn } from '../state/churn';
import { demoData } from '../state/demo-data';
import { operationId } from '../state/ids';
import { Rng } from '../state/rng';
import { AccountStore } from '../state/store';
import { ROUTE_NAMES, type RouteName, type Sandbox, type SandboxOptions } from '../types';
import { earlyAction, FaultQueues, isEarly, mangle, sendLarge } from './faults';
import { Metrics } from './metrics';
import { runOperation } from './operations';
import { emptyReply, errorReply, jsonReply, type Reply, send } from './respond';

/** The key of the default account (demo data) when no accounts are given. */
export const DEFAULT_API_KEY = 'sandbox-key';
const DEFAULT_RATE_LIMIT = { max: 120, windowMs: MINUTE_MS };
// Bodies here are tiny; the cap only stops a runaway client from filling memory.
const MAX_BODY_BYTES = 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('close', () => reject(new Error('request closed before its body ended')));
  });
}

function displayHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1'; // a wildcard bind is reachable on loopback
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function checkKey(key: string): void {
  if (!isCredentialShaped(key))
    throw new TypeError(`not a usable API key (letters, digits, _ and - only): ${key}`);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const accounts = new Map<string, AccountStore>();
  for (const [key, data] of Object.entries(options.accounts ?? { [DEFAULT_API_KEY]: demoData() })) {
    checkKey(key);
    accounts.set(key, new AccountStore(data));
  }
  const rateLimit = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  const limiter = rateLimit === false ? undefined : new RateLimiter(rateLimit.max, rateLimit.windowMs);
  const cap = options.maxConcurrentPerKey ? new ConcurrencyCap(options.maxConcurrentPerKey) : undefined;
  const metrics = new Metrics();
  const faults = new FaultQueues();
  const latency = new Map<RouteName | 'all', number>();
  const timers = new Set<NodeJS.Timeout>();
  const churns = new Set<() => void>();
  let fresh = 0;
  let base = '';

  function accountOf(key: string): AccountStore {
    const account = accounts.get(key);
    if (account === undefined) throw new Error(`no account for key ${key}`);
    return account;
  }

  function sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  /** Auth, then version, then the per-key limits. Returns the caller's account. */
  function admit(req: IncomingMessage, res: ServerResponse): AccountStore {
    const key = authenticate(req.headers.authorization, (candidate) => accounts.has(candidate));
    checkVersion(req.headers['ngrok-version']);
    limiter?.admit(key);
    if (cap !== undefined) res.on('close', cap.enter(key));
    const account = accounts.get(key);
    if (account === undefined) throw notFound(); // unreachable: authenticate checked the key
    return account;
  }

  function operate(
    match: RouteMatch | undefined,
    req: IncomingMessage,
    body: Buffer | 'too-large',
    account: AccountStore,
    opId: string,
  ): Reply {
    if (match === undefined) throw notFound();
    if (body === 'too-large')
      throw new ApiError(400, 'ERR_NGROK_212', 'The request body is too large to read.');
    const outcome = runOperation({
      match,
      method: req.method ?? 'GET',
      query: splitTarget(req.url ?? '/').query,
      contentType: req.headers['content-type'],
      body,
      account,
      base,
      edgesReadOnly: options.edgesWritable !== true,
      agentUpdate: options.agentUpdate ?? 'available',
    });
    return outcome.status === 204 ? emptyReply(opId) : jsonReply(outcome.status, outcome.json, opId);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const opId = operationId();
    const match = matchRoute(req.method ?? '', splitTarget(req.url ?? '/').pathname);
    const token = bearerToken(req.headers.authorization);
    res.on('close', metrics.enter(token));
    if (match !== undefined) metrics.countCall(match.name, token);
    // Faults are taken in arrival order, before auth: an injected answer replaces the upstream.
    const fault = match === undefined ? undefined : faults.take(match.name);
    const delay = match === undefined ? 0 : (latency.get('all') ?? 0) + (latency.get(match.name) ?? 0);
    const body = await readBody(req);

    if (fault !== undefined && isEarly(fault)) {
      await sleep(delay);
      const action = earlyAction(fault, opId);
      if ('reply' in action) send(res, action.reply);
      else if ('large' in action) await sendLarge(res, action.large, opId);
      else if (action.socket === 'drop') req.socket.destroy();
      // 'hang': answer nothing; close() or the client ends the socket.
      return;
    }

    let reply: Reply | undefined;
    let account: AccountStore | undefined;
    try {
      account = admit(req, res);
    } catch (error) {
      reply = toErrorReply(error, opId);
    }
    await sleep(delay);
    if (reply === undefined && account !== undefined) {
      try {
        reply = operate(match, req, body, account, opId);
      } catch (error) {
        reply = toErrorReply(error, opId);
      }
    }
    if (reply === undefined) reply = errorReply(internalError(), opId);
    send(res, match !== undefined && fault !== undefined ? mangle(fault, match.name, reply) : reply);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // Only a request whose body never arrived ends up here; there is no one left to answer.
      if (!res.headersSent) res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${displayHost(host)}:${port}`;
  base = (options.publicBaseUrl ?? url).replace(/\/+$/, '');
  let closing: Promise<void> | undefined;

  return {
    url,
    get keys() {
      return [...accounts.keys()];
    },
    seed(key, data) {
      checkKey(key);
      accounts.set(key, new AccountStore(data));
    },
    account(key) {
      return accountOf(key).snapshot();
    },
    addTunnel(key, tunnel) {
      const account = accountOf(key);
      fresh += 1;
      const added = tunnel ?? freshTunnel(account, 900_000 + fresh);
      account.addTunnel(added);
      return structuredClone(added);
    },
    removeTunnel: (key, id) => accountOf(key).removeTunnel(id),
    addEndpoint(key, input) {
      const account = accountOf(key);
      fresh += 1;
      const generated = freshEndpointInput(new Rng(900_000 + fresh));
      // A field given as undefined is not given: the generated value stays.
      const given = Object.entries(input ?? {}).filter(([, value]) => value !== undefined);
      return createCloudEndpoint(account, { ...generated, ...Object.fromEntries(given), type: 'cloud' });
    },
    removeEndpoint: (key, id) => accountOf(key).removeCloudEndpoint(id),
    touchEndpoint: (key, id) => touchCloudEndpoint(accountOf(key), id),
    listEndpoints: (key) => structuredClone(allEndpoints(accountOf(key), base)),
    listed: (key, collection) => allItems(accountOf(key), collection, base),
    churn(key, options) {
      const stop = startChurn(accountOf(key), options);
      churns.add(stop);
      return () => {
        churns.delete(stop);
        stop();
      };
    },
    calls: (route, key) => metrics.calls(route, key, ROUTE_NAMES),
    resetCalls: () => metrics.reset(),
    peakConcurrency: (key) => metrics.peak(key),
    inject: (route, ...list) => faults.push(route, list),
    setLatency(route, ms) {
      if (!(Number.isFinite(ms) && ms >= 0))
        throw new RangeError('latency must be a non-negative number of ms');
      if (route !== 'all' && !ROUTE_NAMES.includes(route)) throw new TypeError(`unknown route: ${route}`);
      latency.set(route, ms);
    },
    clearFaults() {
      faults.clear();
      latency.clear();
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const stop of churns) stop();
        churns.clear();
        server.close(() => resolve());
        // Hanging and keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function toErrorReply(error: unknown, opId: string): Reply {
  return errorReply(error instanceof ApiError ? error : internalError(), opId);
}
