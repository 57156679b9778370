// A real OTLP/HTTP trace receiver on loopback, as a collector is: it accepts POST /v1/traces with the
// OTLP JSON encoding (what the gateway's exporter sends), answers 200, and decodes every span.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

type Value = string | number | boolean | null;

/** One exported span, its OTLP fields flattened (ids in hex, attributes as a plain object). */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Absent on a root span. */
  readonly parentSpanId?: string;
  readonly name: string;
  /** OTLP SpanKind: 2 server, 3 client. */
  readonly kind: number;
  readonly attributes: Record<string, Value>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly status: number;
  readonly events: { name: string; attributes: Record<string, Value> }[];
  /** Start time, nanoseconds since the epoch. */
  readonly start: bigint;
  readonly scope: string;
  readonly resource: Record<string, Value>;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  readonly url: string;
  /** Each export request's raw body and headers, in arrival order. */
  readonly exports: { body: string; headers: IncomingHttpHeaders }[];
  /** Every span received so far, in start order. */
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

interface KeyValue {
  key: string;
  value: {
    stringValue?: string;
    intValue?: number | string;
    doubleValue?: number;
    boolValue?: boolean;
  };
}

interface Export {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        startTimeUnixNano: string;
        attributes?: KeyValue[];
        status?: { code?: number };
        events?: { name: string; attributes?: KeyValue[] }[];
      }[];
    }[];
  }[];
}

const plainValue = ({ value }: KeyValue): Value =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
  value.doubleValue ??
  value.boolValue ??
  null;

const attributesOf = (list: KeyValue[] | undefined): Record<string, Value> =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, plainValue(kv)]));

function decode(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as Export;
  return (request.resourceSpans ?? []).flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
        name: s.name,
        kind: s.kind,
        attributes: attributesOf(s.attributes),
        status: s.status?.code ?? 0,
        events: (s.events ?? []).map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) })),
        start: BigInt(s.startTimeUnixNano),
        scope: ss.scope?.name ?? '',
        resource: attributesOf(rs.resource?.attributes),
      })),
    ),
  );
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: OtlpReceiver['exports'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      exports.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      // A full success, as a collector answers it.
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports,
    spans: () =>
      exports
        .flatMap((e) => decode(e.body))
        .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
