/**
 * `bosun status`: the cluster at a glance, from a running server's admin API (/bosun/v1/status;
 * the bosun:admin scope when authentication is on): every replica registered (id, role,
 * version, host, when last seen, alive or stale) and each job queue's depth and oldest waiting
 * job. `--json` prints the API's answer as it is.
 */
import type { Command } from 'commander';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import { type ClusterStatus, clusterStatus } from '../api-client/status.ts';
import { emit, printTable } from '../output.ts';

/** "4s ago", "3m ago", "2h ago": how long before `now` a time was. */
export function ago(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 120) return `${s}s ago`;
  if (s < 7200) return `${Math.round(s / 60)}m ago`;
  return `${Math.round(s / 3600)}h ago`;
}

/** "12s", "5m", "3h": a duration in seconds, rounded for a person. */
function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.round(s / 60)}m`;
  return `${Math.round(s / 3600)}h`;
}

function print(status: ClusterStatus): void {
  const now = Date.parse(status.at);
  const alive = status.replicas.filter((r) => r.alive).length;
  const stale = status.replicas.length - alive;
  process.stdout.write(`replicas: ${alive} alive, ${stale} stale\n`);
  if (status.replicas.length > 0) {
    printTable(
      status.replicas.map((r) => ({
        id: r.id,
        role: r.role,
        version: r.version,
        host: r.hostname,
        'last seen': ago(r.seenAt, now),
        state: r.alive ? 'alive' : 'stale',
      })),
      ['id', 'role', 'version', 'host', 'last seen', 'state'],
    );
  }
  process.stdout.write('\nqueues:\n');
  printTable(
    status.queues.map((q) => ({
      queue: q.queue,
      pending: q.pending,
      'oldest waiting': q.oldestSince ? `${duration(q.oldestAgeSeconds)} (since ${q.oldestSince})` : '-',
    })),
    ['queue', 'pending', 'oldest waiting'],
  );
  if (!status.replicas.some((r) => r.alive && r.role !== 'api'))
    process.stdout.write('\nwarning: no alive replica runs the jobs (role all or worker)\n');
}

export function register(status: Command): void {
  withConnectionOptions(status)
    .option('--json', 'print JSON')
    .action(async (opts: ConnectionOptions & { json?: boolean }) => {
      const value = await clusterStatus(ApiClient.from(opts));
      emit(opts.json, value, () => print(value));
    });
}
