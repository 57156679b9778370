import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('configuration', () => {
  it('has defaults: port 4000, Ngrok-Version 2, no upstream (the embedded stand-in)', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      server: { port: 4000 },
      upstream: { apiVersion: '2', url: undefined, apiKey: undefined },
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('a key without a URL talks to the real API', () => {
    expect(loadConfig({ NGROK_API_KEY: 'k' }).upstream.url).toBe('https://api.ngrok.com');
  });

  it('flags mirror the variables and win over them', () => {
    const config = loadConfig({ PORT: '5000' }, ['--port', '6000', '--ngrok-api-url=http://127.0.0.1:9/']);
    expect(config.server.port).toBe(6000);
    expect(config.upstream.url).toBe('http://127.0.0.1:9');
  });

  it('parses gateway tokens with scopes', () => {
    expect(
      loadConfig({ GATEWAY_TOKENS: 'aaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbb:read' }).access.gatewayTokens,
    ).toEqual([
      { token: 'aaaaaaaaaaaaaaaa', scopes: ['read', 'write'] },
      { token: 'bbbbbbbbbbbbbbbb', scopes: ['read'] },
    ]);
  });

  it('parses allowed host names (lower case, no trailing dot)', () => {
    expect(loadConfig({ ALLOWED_HOSTS: 'Gateway.Internal., [::2], *' }).access.allowedHosts).toEqual([
      'gateway.internal',
      '[::2]',
      '*',
    ]);
  });

  const bad: [Record<string, string>, string[], RegExp][] = [
    [{ PORT: 'eighty' }, [], /^PORT: expected a whole number from 0 to 65535, got "eighty"$/],
    [{ PORT: '70000' }, [], /^PORT: expected a whole number/],
    [{ NGROK_API_URL: 'not a url' }, [], /^NGROK_API_URL: not a URL/],
    [{ NGROK_API_URL: 'ftp://example.com' }, [], /^NGROK_API_URL: must be an http or https URL$/],
    [
      { NGROK_API_URL: 'https://user:pw@example.com' },
      [],
      /^NGROK_API_URL: must be a base URL without credentials/,
    ],
    [{ NGROK_API_VERSION: '3' }, [], /^NGROK_API_VERSION: expected one of 2, got "3"$/],
    [{ UPSTREAM_TIMEOUT_MS: '0' }, [], /^UPSTREAM_TIMEOUT_MS: expected a whole number/],
    [{ GATEWAY_TOKENS: 'short' }, [], /^GATEWAY_TOKENS: each token must have at least 16 characters$/],
    [{ GATEWAY_TOKENS: 'aaaaaaaaaaaaaaaa:admin' }, [], /^GATEWAY_TOKENS: unknown scope "admin"$/],
    [{ ALLOWED_HOSTS: 'http://gateway.internal' }, [], /^ALLOWED_HOSTS: expected host names like/],
    [{ ALLOWED_HOSTS: 'gateway.internal:8080' }, [], /^ALLOWED_HOSTS: expected host names like/],
    [{}, ['--prot', '1'], /^unknown argument "--prot"/],
    [{}, ['--port'], /^--port: needs a value$/],
    [{}, ['--port', 'x'], /^--port: expected a whole number/],
  ];
  for (const [env, argv, message] of bad) {
    it(`refuses ${JSON.stringify(env)} ${argv.join(' ')} with one line naming it`, () => {
      let error: unknown;
      try {
        loadConfig(env, argv);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    });
  }
});
