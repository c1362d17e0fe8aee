/**
 * Prometheus metrics: one latency histogram per route pattern, method and status — its
 * `_count` series is the request count, so no separate counter is kept — plus process metrics.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { registerDbMetrics } from './db-metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's metrics registry (other components, e.g. notification delivery, add theirs). */
    metrics: Registry;
  }
}

export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  app.decorate('metrics', registry);
  collectDefaultMetrics({ register: registry, prefix: 'bosun_' });
  registerDbMetrics(registry);
  const latency = new Histogram({
    name: 'bosun_http_request_duration_seconds',
    help: 'HTTP requests answered and their latency, by route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  // Label children cached per series: prom-client otherwise hashes the label set on every call.
  const series = new Map<string, { observe(value: number): void }>();
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, not the URL: ids must not explode label cardinality.
    const route = request.policy?.route ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = series.get(key);
    if (!child) {
      child = latency.labels(request.method, route, String(reply.statusCode));
      series.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });
  app.get(
    '/metrics',
    { config: { sol013: { access: 'public', produces: ['*/*'] } } },
    async (_req, reply) => {
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
  return registry;
}
