// The shared-state options: defaults, and a bad REDIS_URL refused without repeating it (it may
// carry a password).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';

describe('shared-state configuration', () => {
  it('defaults: budget 120 a minute, no Redis, prefix ngw:, one replica share', () => {
    expect(loadConfig({})).toMatchObject({
      upstream: { rateLimitPerMin: 120 },
      redis: { url: undefined, keyPrefix: 'ngw:', timeoutMs: 1_000, fallbackReplicas: 1 },
    });
  });

  it('reads the options by their names and flags', () => {
    const config = loadConfig(
      { REDIS_URL: 'rediss://:s3cret@redis.internal:6380/2', UPSTREAM_RATE_LIMIT_PER_MIN: '0' },
      ['--redis-key-prefix', 'gw-prod:', '--redis-fallback-replicas=3'],
    );
    expect(config).toMatchObject({
      upstream: { rateLimitPerMin: 0 },
      redis: { url: 'rediss://:s3cret@redis.internal:6380/2', keyPrefix: 'gw-prod:', fallbackReplicas: 3 },
    });
  });

  it('refuses a URL that is not redis:// or rediss:// without repeating it', () => {
    const attempt = () => loadConfig({ REDIS_URL: 'http://:s3cret@redis.internal' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/^REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL/);
    expect(attempt).not.toThrow(/s3cret/);
  });

  it.each([
    [{ REDIS_KEY_PREFIX: 'has space' }, /^REDIS_KEY_PREFIX: expected 1 to 64 of/],
    [{ REDIS_FALLBACK_REPLICAS: '0' }, /^REDIS_FALLBACK_REPLICAS: expected a whole number from 1/],
    [{ UPSTREAM_RATE_LIMIT_PER_MIN: '-1' }, /^UPSTREAM_RATE_LIMIT_PER_MIN: expected a whole number/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
