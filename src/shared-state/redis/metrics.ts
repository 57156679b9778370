// The Redis connection's state as a Prometheus gauge, read when /metrics is scraped.
import { Gauge, type Registry } from 'prom-client';
import type { RedisConnection } from './connection';

export function registerRedisMetrics(registry: Registry, connection: Pick<RedisConnection, 'state'>): void {
  new Gauge({
    name: 'gateway_redis_up',
    help: 'Whether Redis (REDIS_URL) holds the shared state now (1), or this process does while it is unreachable (0).',
    registers: [registry],
    collect() {
      this.set(connection.state === 'up' ? 1 : 0);
    },
  });
}
