/** Prometheus metrics: requests and latency per route pattern and status, plus process metrics. */
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'bosun_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'bosun_http_requests_total',
    help: 'HTTP requests answered, by route pattern and status',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'bosun_http_request_duration_seconds',
    help: 'HTTP request latency, by route pattern and status',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL: ids must not explode label cardinality.
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
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
