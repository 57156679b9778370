// Seeded cloud endpoints for the demo data, and fresh ones for addEndpoint and churn: the same
// seed gives the same endpoints, ids included.
import { ksuidSuffix } from '../state/ids';
import type { Rng } from '../state/rng';
import type { CloudEndpoint, CloudEndpointInput, Ref } from '../types';

const HELLO = JSON.stringify({
  on_http_request: [
    {
      actions: [
        { type: 'custom-response', config: { status_code: 200, content: 'hello from the stand-in' } },
      ],
    },
  ],
});
const FORWARD = (target: string) => `on_http_request:
  - expressions:
      - "req.url.path.startsWith('/admin')"
    actions:
      - type: deny
  - actions:
      - type: forward-internal
        config:
          url: ${target}
`;
const TCP_ALLOW = `on_tcp_connect:
  - actions:
      - type: restrict-ips
        config:
          enforce: true
          allow:
            - 10.0.0.0/8
`;

interface DemoEndpoint {
  url: string;
  policy: string;
  bindings: string[];
  description?: string;
  metadata?: string;
  pooling?: boolean;
}

// Public, internal and TCP endpoints; two of the public ones forward to internal ones.
const DEMO: readonly DemoEndpoint[] = [
  {
    url: 'https://checkout.example.com',
    policy: FORWARD('https://checkout.internal'),
    bindings: ['public'],
    description: 'Checkout storefront',
    metadata: '{"team":"payments","env":"prod"}',
  },
  {
    url: 'https://checkout.internal',
    policy: HELLO,
    bindings: ['internal'],
    description: 'Checkout service',
  },
  {
    url: 'https://search.example.com',
    policy: FORWARD('http://search.internal'),
    bindings: ['public'],
    pooling: true,
  },
  { url: 'http://search.internal', policy: HELLO, bindings: ['internal'], metadata: 'ci-runner-17' },
  { url: 'tcp://5.tcp.ngrok.io:21456', policy: TCP_ALLOW, bindings: ['public'], description: 'Postgres' },
  { url: 'https://status.example.com', policy: HELLO, bindings: ['public'] },
];

function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The demo account's cloud endpoints, newest first, created between `start` and about ten minutes
 * after it (among the demo tunnels), some updated hours later.
 */
export function demoCloudEndpoints(rng: Rng, start: Date): CloudEndpoint[] {
  const principal: Ref = (() => {
    const id = `usr_${ksuidSuffix(new Date(start.getTime() - 86_400_000 * 30), rng.bytes(16))}`;
    return { id, uri: `https://api.ngrok.com/users/${id}` };
  })();
  return DEMO.map((demo, index): CloudEndpoint => {
    const created = new Date(start.getTime() + (index * 100 + rng.int(0, 59)) * 1000);
    const updated = new Date(created.getTime() + rng.int(0, 2) * 3_600_000);
    return {
      id: `ep_${ksuidSuffix(created, rng.bytes(16))}`,
      url: demo.url,
      created_at: rfc3339(created),
      updated_at: rfc3339(updated),
      traffic_policy: demo.policy,
      bindings: [...demo.bindings],
      ...(demo.description === undefined ? {} : { description: demo.description }),
      ...(demo.metadata === undefined ? {} : { metadata: demo.metadata }),
      pooling_enabled: demo.pooling ?? false,
      principal,
    };
  }).reverse();
}

/** A new cloud endpoint's fields: a random public (three in four) or internal URL and a valid policy. */
export function freshEndpointInput(rng: Rng): CloudEndpointInput {
  const internal = rng.chance(0.25);
  const name = rng.hex(10);
  return {
    url: internal ? `https://${name}.internal` : `https://${name}.example.com`,
    traffic_policy: internal ? HELLO : FORWARD(`https://${name}.internal`),
    ...(rng.chance(0.5) ? { description: `churned endpoint ${name}` } : {}),
  };
}
