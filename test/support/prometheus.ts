/**
 * A real Prometheus and a real Alertmanager (Debian's `prometheus` and `prometheus-alertmanager`)
 * for the fault-management tests: each started once per test process, on free loopback ports,
 * with temporary config and data folders and short intervals (scrape and rule evaluation every
 * second, Alertmanager grouping within a second), and stopped by PID when the process exits.
 * A test configures them through files and the HTTP reload endpoints (`--web.enable-lifecycle`),
 * so several tests of a file share the two processes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './ports.ts';
import { tempDir } from './temp.ts';

export interface Monitor {
  /** Prometheus's base URL (http://127.0.0.1:port). */
  prometheusUrl: string;
  /** Alertmanager's base URL. */
  alertmanagerUrl: string;
  /**
   * Replaces what Prometheus scrapes and its alert rules (YAML text), with more rule files
   * (globs) when given, then reloads it.
   */
  configurePrometheus(options: { scrapeConfigs: string; rules: string; ruleFiles?: string[] }): Promise<void>;
  /** Replaces Alertmanager's routes and receivers (YAML text of its config), then reloads it. */
  configureAlertmanager(config: string): Promise<void>;
  /** The active alerts Prometheus has (pending or firing), with their labels. */
  prometheusAlerts(): Promise<{ labels: Record<string, string>; state: string }[]>;
  /** The alerts Alertmanager holds. */
  alertmanagerAlerts(): Promise<{ labels: Record<string, string>; status: { state: string } }[]>;
}

const PROMETHEUS = '/usr/bin/prometheus';
const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';

const children: ChildProcess[] = [];
process.once('exit', () => {
  for (const child of children) if (child.pid && child.exitCode === null) process.kill(child.pid, 'SIGTERM');
});

function launch(binary: string, args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // The test process ends when its tests do, and takes the two servers down with it (below).
  child.unref();
  (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
  return { child, output: () => out };
}

/** Resolves once `url` answers 200 (the process is ready), rejects with its output after 30 s. */
async function ready(url: string, started: { child: ChildProcess; output: () => string }): Promise<void> {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (started.child.exitCode !== null) throw new Error(`${url} exited:\n${started.output()}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not ready within 30 s:\n${started.output()}`);
}

async function reload(base: string): Promise<void> {
  const response = await fetch(`${base}/-/reload`, { method: 'POST' });
  if (!response.ok) throw new Error(`${base}/-/reload: ${response.status} ${await response.text()}`);
}

const EMPTY_ALERTMANAGER = 'route:\n  receiver: none\nreceivers:\n  - name: none\n';

async function startMonitor(): Promise<Monitor> {
  const dir = tempDir('bosun-prom-');
  const [promPort, amPort, amCluster] = await Promise.all([freePort(), freePort(), freePort()]);
  const prometheusUrl = `http://127.0.0.1:${promPort}`;
  const alertmanagerUrl = `http://127.0.0.1:${amPort}`;
  const amConfig = join(dir, 'alertmanager.yml');
  writeFileSync(amConfig, EMPTY_ALERTMANAGER);
  const am = launch(ALERTMANAGER, [
    `--config.file=${amConfig}`,
    `--storage.path=${join(dir, 'am-data')}`,
    `--web.listen-address=127.0.0.1:${amPort}`,
    `--cluster.listen-address=`,
    `--cluster.advertise-address=127.0.0.1:${amCluster}`,
  ]);
  const promConfig = join(dir, 'prometheus.yml');
  const rulesFile = join(dir, 'rules.yml');
  const promYaml = (scrapeConfigs: string, ruleFiles: string[] = []) =>
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      `rule_files: ${JSON.stringify([rulesFile, ...ruleFiles])}`,
      'alerting:',
      '  alertmanagers:',
      `    - static_configs: [{ targets: ['127.0.0.1:${amPort}'] }]`,
      'scrape_configs:',
      scrapeConfigs,
    ].join('\n');
  writeFileSync(rulesFile, 'groups: []\n');
  writeFileSync(promConfig, promYaml('  []'));
  const prom = launch(PROMETHEUS, [
    `--config.file=${promConfig}`,
    `--storage.tsdb.path=${join(dir, 'prom-data')}`,
    `--web.listen-address=127.0.0.1:${promPort}`,
    '--web.enable-lifecycle',
    // Alerts reach Alertmanager at once, and a resolved one is sent again soon.
    '--rules.alert.resend-delay=1s',
  ]);
  await Promise.all([ready(`${alertmanagerUrl}/-/ready`, am), ready(`${prometheusUrl}/-/ready`, prom)]);

  const json = async <T>(url: string): Promise<T> => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return (await response.json()) as T;
  };
  return {
    prometheusUrl,
    alertmanagerUrl,
    async configurePrometheus({ scrapeConfigs, rules, ruleFiles }) {
      writeFileSync(rulesFile, rules);
      writeFileSync(promConfig, promYaml(scrapeConfigs, ruleFiles));
      await reload(prometheusUrl);
    },
    async configureAlertmanager(config) {
      writeFileSync(amConfig, config);
      await reload(alertmanagerUrl);
    },
    async prometheusAlerts() {
      const body = await json<{ data: { alerts: { labels: Record<string, string>; state: string }[] } }>(
        `${prometheusUrl}/api/v1/alerts`,
      );
      return body.data.alerts;
    },
    alertmanagerAlerts: () => json(`${alertmanagerUrl}/api/v2/alerts`),
  };
}

let monitor: Promise<Monitor> | undefined;

/** The test process's Prometheus and Alertmanager, started on first use. */
export function monitoring(): Promise<Monitor> {
  monitor ??= startMonitor();
  return monitor;
}
