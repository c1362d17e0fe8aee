/**
 * Prometheus provisioning from the lifecycle, with a real Prometheus reading the files through a
 * file_sd_configs glob and a rule_files glob and reloaded by Bosun over HTTP, on SQLite and
 * PostgreSQL: instantiate writes the instance's targets and rules and Prometheus shows them,
 * scale out and in rewrite them, terminate removes them and Prometheus drops them, an instance
 * that opts out gets none, and an unreachable Prometheus neither fails the operation nor stops
 * the reload, which is retried until it answers. Plus what hostile names can do to the files.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { fileBase, writeIfChanged } from '../../src/fm/prometheus/files.ts';
import { renderRules, renderTargets } from '../../src/fm/prometheus/render.ts';
import { loadRuleTemplate } from '../../src/fm/prometheus/template.ts';
import { LCM_TEST_CONFIG } from '../http/vnflcm/lcm-server.ts';
import {
  createInstance,
  H,
  INSTANTIATE,
  type Instance,
  onboardOnce,
  runTask,
  V2,
} from '../http/vnflcm/lcm-support.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { type Monitor, monitoring } from '../support/prometheus.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';
import { eventually } from './alert-support.ts';

interface Target {
  labels: Record<string, string>;
}
interface RuleGroup {
  name: string;
  rules: { name: string; labels: Record<string, string> }[];
}

async function promTargets(monitor: Monitor, instanceId: string): Promise<Target[]> {
  const res = await fetch(`${monitor.prometheusUrl}/api/v1/targets?state=active`);
  const body = (await res.json()) as { data: { activeTargets: Target[] } };
  return body.data.activeTargets.filter((t) => t.labels.vnf_instance_id === instanceId);
}

async function promRuleGroups(monitor: Monitor, instanceId: string): Promise<RuleGroup[]> {
  const res = await fetch(`${monitor.prometheusUrl}/api/v1/rules`);
  const body = (await res.json()) as { data: { groups: RuleGroup[] } };
  return body.data.groups.filter((g) => g.name.startsWith(`bosun-${instanceId}-`));
}

const vnfcIdsOf = (instance: Instance) =>
  (instance.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => v.id).sort();

async function shown(base: string, id: string): Promise<Instance> {
  return (await http<Instance>(base, 'GET', `${V2}/vnf_instances/${id}`, { headers: H })).body;
}

async function instantiate(base: string, vnfdId: string, additionalParams?: Record<string, unknown>) {
  const instance = await createInstance(base, vnfdId);
  const done = await runTask(base, instance.id, 'instantiate', {
    ...INSTANTIATE,
    ...(additionalParams ? { additionalParams } : {}),
  });
  assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
  return instance.id;
}

/** The instance's targets file, once it lists exactly these VNFCs. */
async function targetsFileListing(sdDir: string, instanceId: string, vnfcIds: string[]) {
  const path = join(sdDir, `${fileBase(instanceId)}.json`);
  return eventually(`targets file of ${instanceId} with ${vnfcIds.length} VNFCs`, async () => {
    if (!existsSync(path)) return undefined;
    const entries = JSON.parse(readFileSync(path, 'utf8')) as {
      targets: string[];
      labels: Record<string, string>;
    }[];
    const ids = entries.map((e) => e.labels.vnfc_id).sort();
    return JSON.stringify(ids) === JSON.stringify(vnfcIds) ? entries : undefined;
  });
}

for (const dialect of DIALECTS) {
  describe(`Prometheus provisioning on ${dialect}`, () => {
    let server: TestServer;
    let monitor: Monitor;
    let vnfdId: string;
    const sdDir = tempDir('bosun-sd-');
    const rulesDir = tempDir('bosun-rules-');
    before(async () => {
      monitor = await monitoring();
      await monitor.configurePrometheus({
        scrapeConfigs: `  - job_name: bosun-vnfc\n    file_sd_configs: [{ files: ['${sdDir}/*.json'], refresh_interval: 1s }]\n`,
        rules: 'groups: []\n',
        ruleFiles: [`${rulesDir}/*.yml`],
      });
      server = await startTestServer(dialect, {
        config: {
          ...LCM_TEST_CONFIG,
          outbound: { allow: ['127.0.0.0/8'] },
          fm: {
            healthIntervalMs: 0,
            prometheus: { sdDir, rulesDir, url: monitor.prometheusUrl, syncIntervalMs: 100 },
          },
        },
      });
      vnfdId = (await onboardOnce(server.url)).vnfdId as string;
    });
    after(async () => {
      await server.close();
    });

    test('instantiate, scale out, scale in, heal and terminate: the files and Prometheus follow', async () => {
      const id = await instantiate(server.url, vnfdId);
      const first = await shown(server.url, id);
      const entries = await targetsFileListing(sdDir, id, vnfcIdsOf(first));
      for (const vnfc of first.instantiatedVnfInfo?.vnfcResourceInfo ?? []) {
        const metadata = vnfc.metadata as { hostname?: string; metricsTarget?: string; serverName?: string };
        const entry = entries.find((e) => e.labels.vnfc_id === vnfc.id);
        assert.ok(entry, vnfc.id);
        assert.equal(entry.labels.vdu_id, vnfc.vduId);
        // The instance keeps what monitoring knows of each VNFC (written by the look: read again).
        const kept = (await shown(server.url, id)).instantiatedVnfInfo?.vnfcResourceInfo?.find(
          (v) => v.id === vnfc.id,
        )?.metadata as typeof metadata;
        assert.equal(kept.hostname, metadata.serverName);
        assert.deepEqual(entry.targets, [kept.metricsTarget]);
        assert.match(kept.metricsTarget ?? '', /^\d+\.\d+\.\d+\.\d+:9100$/);
      }
      const targets = await eventually('Prometheus shows the targets', async () => {
        const found = await promTargets(monitor, id);
        return found.length === entries.length ? found : undefined;
      });
      assert.deepEqual(targets.map((t) => t.labels.vnfc_id).sort(), vnfcIdsOf(first));
      const groups = await eventually('Prometheus shows the rules', async () => {
        const found = await promRuleGroups(monitor, id);
        return found.length > 0 ? found : undefined;
      });
      const rules = groups.flatMap((g) => g.rules);
      assert.equal(rules.length, entries.length);
      assert.deepEqual(rules.map((r) => r.labels.vnfc_id).sort(), vnfcIdsOf(first));
      for (const rule of rules) {
        assert.equal(rule.labels.vnf_instance_id, id);
        assert.equal(rule.labels.function_type, 'auto_heal');
        assert.equal(rule.labels.perceived_severity, 'CRITICAL');
      }

      const out = await runTask(server.url, id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' });
      assert.equal(out.operationState, 'COMPLETED', JSON.stringify(out.error));
      const scaledOut = vnfcIdsOf(await shown(server.url, id));
      assert.equal(scaledOut.length, entries.length + 1);
      await targetsFileListing(sdDir, id, scaledOut);
      await eventually('Prometheus shows the new VNFC', async () =>
        (await promTargets(monitor, id)).length === scaledOut.length ? true : undefined,
      );
      await eventually('Prometheus has its rule', async () =>
        (await promRuleGroups(monitor, id)).flatMap((g) => g.rules).length === scaledOut.length
          ? true
          : undefined,
      );

      const back = await runTask(server.url, id, 'scale', { type: 'SCALE_IN', aspectId: 'VDU1_scale' });
      assert.equal(back.operationState, 'COMPLETED', JSON.stringify(back.error));
      const scaledIn = vnfcIdsOf(await shown(server.url, id));
      assert.equal(scaledIn.length, entries.length);
      await targetsFileListing(sdDir, id, scaledIn);
      await eventually('Prometheus drops the removed VNFC', async () =>
        (await promTargets(monitor, id)).length === scaledIn.length ? true : undefined,
      );

      // Heal replaces the server: the driver's fresh metadata lacks hostname until the look adds it.
      const sick = (await shown(server.url, id)).instantiatedVnfInfo?.vnfcResourceInfo?.[0];
      assert.ok(sick);
      const infoId = (await shown(server.url, id)).instantiatedVnfInfo?.vnfcInfo?.find(
        (v) => v.vnfcResourceInfoId === sick.id,
      )?.id;
      const healed = await runTask(server.url, id, 'heal', { vnfcInstanceId: [infoId] });
      assert.equal(healed.operationState, 'COMPLETED', JSON.stringify(healed.error));
      const after = await eventually('the healed VNFC has its hostname again', async () => {
        const vnfc = (await shown(server.url, id)).instantiatedVnfInfo?.vnfcResourceInfo?.find(
          (v) => v.id === sick.id,
        );
        const metadata = vnfc?.metadata as
          | { hostname?: string; serverName?: string; metricsTarget?: string }
          | undefined;
        return metadata?.hostname ? { vnfc, metadata } : undefined;
      });
      assert.notEqual(after.vnfc?.computeResource.resourceId, sick.computeResource.resourceId);
      assert.equal(after.metadata.hostname, after.metadata.serverName);
      const rewritten = await targetsFileListing(sdDir, id, scaledIn);
      assert.deepEqual(rewritten.find((e) => e.labels.vnfc_id === sick.id)?.targets, [
        after.metadata.metricsTarget,
      ]);

      const end = await runTask(server.url, id, 'terminate', { terminationType: 'FORCEFUL' });
      assert.equal(end.operationState, 'COMPLETED', JSON.stringify(end.error));
      await eventually('the files removed', async () =>
        !existsSync(join(sdDir, `${fileBase(id)}.json`)) && !existsSync(join(rulesDir, `${fileBase(id)}.yml`))
          ? true
          : undefined,
      );
      await eventually('Prometheus drops the targets', async () =>
        (await promTargets(monitor, id)).length === 0 ? true : undefined,
      );
      await eventually('Prometheus drops the rules', async () =>
        (await promRuleGroups(monitor, id)).length === 0 ? true : undefined,
      );
    });

    test('an instance whose instantiate request says monitoring.prometheus false gets no files', async () => {
      const quiet = await instantiate(server.url, vnfdId, { monitoring: { prometheus: false } });
      const loud = await instantiate(server.url, vnfdId);
      // The look that wrote the later instance's files has seen the earlier one.
      await targetsFileListing(sdDir, loud, vnfcIdsOf(await shown(server.url, loud)));
      assert.equal(existsSync(join(sdDir, `${fileBase(quiet)}.json`)), false);
      assert.equal(existsSync(join(rulesDir, `${fileBase(quiet)}.yml`)), false);
      assert.equal((await promTargets(monitor, quiet)).length, 0);
      for (const id of [quiet, loud])
        assert.equal(
          (await runTask(server.url, id, 'terminate', { terminationType: 'FORCEFUL' })).operationState,
          'COMPLETED',
        );
    });

    test('an instance that COMPLETED before provisioning ran (a crash) gets its files at the next start', async () => {
      const key = randomBytes(32).toString('base64');
      const before = await startTestServer(dialect, {
        config: { ...LCM_TEST_CONFIG, security: { encryptionKey: key } },
      });
      let id: string;
      try {
        id = await instantiate(before.url, (await onboardOnce(before.url)).vnfdId as string);
      } finally {
        await before.close();
      }
      const dir = tempDir('bosun-sd-restart-');
      const restarted = await startTestServer(dialect, {
        databaseUrl: before.config.database.url,
        config: {
          ...LCM_TEST_CONFIG,
          security: { encryptionKey: key },
          fm: { healthIntervalMs: 0, prometheus: { sdDir: dir, syncIntervalMs: 100 } },
        },
      });
      try {
        // The files come from what the database holds: the first look after the start writes them.
        await targetsFileListing(dir, id, vnfcIdsOf(await shown(restarted.url, id)));
      } finally {
        await restarted.close();
      }
    });

    test('Prometheus unreachable: the operation still completes and the reload is retried until it answers', async () => {
      // A port with nothing on it now; a stand-in Prometheus takes it later.
      const standIn: Server = createServer((req, res) => {
        reloads.push(`${req.method} ${req.url}`);
        res.end();
      });
      const reloads: string[] = [];
      await new Promise<void>((r) => standIn.listen(0, '127.0.0.1', r));
      const port = (standIn.address() as AddressInfo).port;
      await new Promise<void>((r) => standIn.close(() => r()));
      const dir = tempDir('bosun-sd-down-');
      const rules = tempDir('bosun-rules-down-');
      const down = await startTestServer(dialect, {
        config: {
          ...LCM_TEST_CONFIG,
          outbound: { allow: ['127.0.0.0/8'] },
          fm: {
            healthIntervalMs: 0,
            prometheus: { sdDir: dir, rulesDir: rules, url: `http://127.0.0.1:${port}`, syncIntervalMs: 100 },
          },
        },
      });
      try {
        const pkg = await onboardOnce(down.url);
        const id = await instantiate(down.url, pkg.vnfdId as string);
        await targetsFileListing(dir, id, vnfcIdsOf(await shown(down.url, id)));
        assert.deepEqual(reloads, []);
        await new Promise<void>((r) => standIn.listen(port, '127.0.0.1', r));
        await eventually('the reload retried', async () => (reloads.length > 0 ? true : undefined));
        assert.equal(reloads[0], 'POST /-/reload');
        assert.equal(
          (await runTask(down.url, id, 'terminate', { terminationType: 'FORCEFUL' })).operationState,
          'COMPLETED',
        );
        await eventually('the files removed', async () =>
          readdirSync(dir).length === 0 && readdirSync(rules).length === 0 ? true : undefined,
        );
      } finally {
        await down.close();
        await new Promise<void>((r) => standIn.close(() => r()));
      }
    });
  });
}

describe('Prometheus provisioning files and hostile names', () => {
  const hostileVdu = `../../x"} or vector(1) #\n{{ $value }}'`;
  const vnfcs = [{ vnfcId: 'vnfc-1', vduId: hostileVdu, hostname: 'h"1', target: '10.0.0.5:9100' }];

  test('a hostile VDU name is reduced to safe characters in the targets and the rules', () => {
    const targets = JSON.parse(renderTargets('inst-1', vnfcs)) as { labels: Record<string, string> }[];
    assert.equal(targets[0].labels.vdu_id, '.._.._x___or_vector_1________value____');
    const rules = parse(renderRules('inst-1', vnfcs, loadRuleTemplate(''))) as {
      groups: {
        name: string;
        rules: { expr: string; labels: Record<string, string>; annotations: Record<string, string> }[];
      }[];
    };
    const [rule] = rules.groups[0].rules;
    assert.equal(rule.expr, 'up{vnfc_id="vnfc-1"} == 0 or bosun_sim_server_up{vnfc_id="vnfc-1"} == 0');
    assert.equal(rule.labels.vdu_id, '.._.._x___or_vector_1________value____');
    assert.equal(
      rule.annotations.probable_cause,
      'VNFC vnfc-1 of VDU .._.._x___or_vector_1________value____ is down',
    );
    assert.equal(rule.annotations.fault_details, 'target 10.0.0.5:9100, host h_1');
  });

  test('an instance id cannot name a file outside the folder', async () => {
    const dir = tempDir('bosun-sd-hostile-');
    const base = fileBase('../../../tmp/evil');
    assert.match(base, /^bosun-[A-Za-z0-9_-]+$/);
    assert.notEqual(fileBase('a/b'), fileBase('a_b'));
    await writeIfChanged(dir, `${base}.json`, '[]\n');
    assert.deepEqual(readdirSync(dir), [`${base}.json`]);
    await assert.rejects(writeIfChanged(dir, '../escape.json', '[]\n'), /refusing file name/);
  });
});

describe('Prometheus provisioning rule template', () => {
  test("the operator's template is written once per VNFC; one that is not a list of rules stops the start", () => {
    const dir = tempDir('bosun-template-');
    const path = join(dir, 'rules.yml');
    writeFileSync(
      path,
      "- alert: Mine\n  expr: 'up{instance=\"{{target}}\"} == 0'\n  labels: { vdu: '{{vduId}}' }\n",
    );
    const vnfcs = [
      { vnfcId: 'a', vduId: 'VDU1', hostname: 'h1', target: '10.0.0.1:9100' },
      { vnfcId: 'b', vduId: 'VDU2', hostname: 'h2', target: '10.0.0.2:9100' },
    ];
    const rules = parse(renderRules('i', vnfcs, loadRuleTemplate(path))) as {
      groups: { name: string; rules: { alert: string; expr: string; labels: Record<string, string> }[] }[];
    };
    assert.deepEqual(
      rules.groups.map((g) => [g.name, g.rules.map((r) => [r.alert, r.expr, r.labels.vdu])]),
      [
        ['bosun-i-0-VDU1', [['Mine', 'up{instance="10.0.0.1:9100"} == 0', 'VDU1']]],
        ['bosun-i-1-VDU2', [['Mine', 'up{instance="10.0.0.2:9100"} == 0', 'VDU2']]],
      ],
    );
    writeFileSync(path, 'groups: []\n');
    assert.throws(() => loadRuleTemplate(path), /must be a YAML list of alerting rules/);
    assert.throws(() => loadRuleTemplate(join(dir, 'missing.yml')), /cannot read/);
  });
});
