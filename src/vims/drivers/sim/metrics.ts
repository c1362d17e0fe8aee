/**
 * The simulated VIM as a Prometheus target: the exposition text of GET /bosun/v1/sim/metrics, so
 * that a real Prometheus can scrape the simulated cloud and its alert rules fire on an injected
 * crash or a host going down, with the whole monitoring loop on one machine. One series per
 * server (1 up, 0 in ERROR) labelled with what an alert needs to find its VNFC, and one per host.
 * Label names follow the Prometheus plugin's labels (vnf_instance_id) and avoid `instance` and
 * `job`, which Prometheus sets itself on every scraped series.
 */
import { Gauge, Registry } from 'prom-client';
import type { Executor } from '../../../store/db/transaction.ts';
import { serverHealth } from './health.ts';

export async function simMetrics(db: Executor): Promise<{ contentType: string; text: string }> {
  const registry = new Registry();
  const server = new Gauge({
    name: 'bosun_sim_server_up',
    help: 'Whether a server of the simulated VIM runs (1) or is in ERROR, crashed or on a host down (0)',
    labelNames: ['server_id', 'server_name', 'vnf_instance_id', 'vnfc_id', 'host', 'zone'] as const,
    registers: [registry],
  });
  const host = new Gauge({
    name: 'bosun_sim_host_up',
    help: 'Whether a compute host of the simulated VIM is up (1) or down (0)',
    labelNames: ['host', 'zone'] as const,
    registers: [registry],
  });
  for (const s of await serverHealth(db)) {
    server.set(
      {
        server_id: s.serverId,
        server_name: s.name,
        vnf_instance_id: s.instanceId ?? '',
        vnfc_id: s.vnfcResourceInfoId,
        host: s.host,
        zone: s.zoneId,
      },
      s.state === 'ERROR' ? 0 : 1,
    );
  }
  const hosts = await db.selectFrom('sim_hosts').select(['name', 'zone', 'state']).orderBy('name').execute();
  for (const h of hosts) host.set({ host: h.name, zone: h.zone }, h.state === 'down' ? 0 : 1);
  return { contentType: registry.contentType, text: await registry.metrics() };
}
