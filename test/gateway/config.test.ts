import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig, OPTIONS } from '../../src/config';

const dir = mkdtempSync(join(tmpdir(), 'gateway-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A config file holding `text`; its path. */
function configFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The ConfigError's message loading throws (and that it is one line). */
function refusal(load: () => Config): string {
  let error: unknown;
  try {
    load();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message).not.toContain('\n');
  return (error as Error).message;
}

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

describe('the config file', () => {
  it('holds every setting under its section and key, values read as their variables are', () => {
    const path = configFile(
      'all.yaml',
      [
        'server:',
        '  port: 5000',
        '  compression: false',
        'upstream:',
        '  url: http://127.0.0.1:9/',
        'access:',
        '  corsOrigins: [https://a.example.com, "https://b.example.com"]',
        '  allowedHosts: gateway.internal, [::2]',
        'tracing:',
        '  samplerRatio: 0.25',
        'live:',
        '  pollIntervalMs: ~',
        'cache:',
      ].join('\n'),
    );
    const config = loadConfig({}, ['--config', path]);
    expect(config.server).toMatchObject({ port: 5000, compression: false });
    expect(config.upstream.url).toBe('http://127.0.0.1:9');
    expect(config.access.corsOrigins).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(config.access.allowedHosts).toEqual(['gateway.internal', '[::2]']);
    expect(config.live.pollIntervalMs).toBe(loadConfig({}).live.pollIntervalMs);
    expect(config.tracing).toEqual(loadConfig({ OTEL_TRACES_SAMPLER_ARG: '0.25' }).tracing);
  });

  it('knows every key of the table; the environment wins over it, flags over both', () => {
    for (const o of OPTIONS) {
      const path = configFile(`${o.env}.yaml`, `${o.section}:\n  ${o.key}: { nested: 1 }\n`);
      expect(refusal(() => loadConfig({}, ['--config', path]))).toBe(
        `${path}: ${o.section}.${o.key}: expected a value or a list of values`,
      );
    }
    const path = configFile('port.yaml', 'server: { port: 5000 }');
    expect(loadConfig({}, [`--config=${path}`]).server.port).toBe(5000);
    expect(loadConfig({ PORT: '' }, [`--config=${path}`]).server.port).toBe(5000);
    expect(loadConfig({ PORT: '6000' }, [`--config=${path}`]).server.port).toBe(6000);
    expect(loadConfig({ PORT: '6000' }, ['--port', '7000', `--config=${path}`]).server.port).toBe(7000);
  });

  it('a bad value has the message of the variable, named by the file and key', () => {
    const path = configFile('bad.yaml', 'server:\n  port: eighty\n');
    const env = refusal(() => loadConfig({ PORT: 'eighty' }));
    expect(env).toMatch(/^PORT: expected a whole number/);
    expect(refusal(() => loadConfig({}, ['--config', path]))).toBe(
      `${path}: server.port${env.slice('PORT'.length)}`,
    );
    const tokens = configFile('tokens.yaml', 'access:\n  gatewayTokens: [short]\n');
    expect(refusal(() => loadConfig({}, ['--config', tokens]))).toBe(
      `${tokens}: access.gatewayTokens: each token must have at least 16 characters`,
    );
  });

  it('refuses an unknown section, a section or file that is no mapping, and duplicate keys', () => {
    const cases: [string, string][] = [
      ['sever:\n  port: 1\n', 'unknown section "sever" (the sections: '],
      ['server: 4000\n', 'server: expected a mapping of settings'],
      ['- server\n', 'expected a mapping of sections (server:, upstream:, …)'],
      ['server:\n  port: 1\n  port: 2\n', 'not valid YAML: '],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const path = configFile(`case-${i}.yaml`, text);
      expect(refusal(() => loadConfig({}, ['--config', path]))).toContain(`${path}: ${message}`);
    }
  });

  it('reads the default file only when it exists, and --config instead of it', () => {
    const fallback = configFile('default.yaml', 'server: { port: 5000 }');
    const other = configFile('other.yaml', 'server: { port: 6000 }');
    expect(loadConfig({}, [], fallback).server.port).toBe(5000);
    expect(loadConfig({}, [], join(dir, 'absent.yaml')).server.port).toBe(4000);
    expect(loadConfig({}, ['--config', other], fallback).server.port).toBe(6000);
    expect(refusal(() => loadConfig({}, ['--config', join(dir, 'absent.yaml')]))).toBe(
      `${join(dir, 'absent.yaml')}: cannot read the config file (no such file)`,
    );
  });
});
