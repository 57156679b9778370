// The live example operations (GraphiQL's last tabs, after those of examples.ts): one subscription
// per kind of live events, each starting from what is online now (includeCurrent).

/** In GraphiQL's tab order; examples.ts lists them after the queries and mutations. */
export const LIVE_EXAMPLES = [
  {
    name: 'EndpointEvents',
    variables: () => ({ includeCurrent: true }),
    document: /* GraphQL */ `# Live: an ONLINE event for every endpoint listed now (includeCurrent), then each one that appears, changes (UPDATED) or goes.
subscription EndpointEvents($includeCurrent: Boolean = false) {
  endpointEvents(includeCurrent: $includeCurrent) {
    kind
    endpointId
    observedAt
    endpoint {
      id
      url
      type
      updatedAt
    }
  }
}
`,
  },
  {
    name: 'AgentEvents',
    variables: () => ({ includeCurrent: true }),
    document: /* GraphQL */ `# Live: an ONLINE event for every agent online now (includeCurrent), then each agent that connects or goes away (a STOP or RESTART too, at the next poll).
subscription AgentEvents($includeCurrent: Boolean = false) {
  tunnelSessionEvents(includeCurrent: $includeCurrent) {
    kind
    tunnelSessionId
    observedAt
    tunnelSession {
      id
      os
      agentVersion
      region
      startedAt
    }
  }
}
`,
  },
  {
    name: 'TunnelEvents',
    variables: () => ({ includeCurrent: true }),
    document: /* GraphQL */ `# Live: an ONLINE event for every tunnel online now (includeCurrent), then each tunnel that comes online or goes offline.
subscription TunnelEvents($includeCurrent: Boolean = false) {
  tunnelEvents(includeCurrent: $includeCurrent) {
    kind
    tunnelId
    observedAt
    tunnel {
      id
      publicUrl
      proto
      region
    }
  }
}
`,
  },
];
