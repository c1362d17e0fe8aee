/**
 * Prometheus provisioning from the lifecycle: every look brings the files in line with the
 * database — an INSTANTIATED instance that no operation holds has its targets and rules files
 * (after instantiate, scale and heal they are rewritten from its VNFCs), any other instance has
 * none (terminated, deleted, or monitoring.prometheus false in its instantiate request's
 * additionalParams) — then reloads Prometheus when a rules file changed or a reload failed. Deriving
 * the files from the database is what makes it durable: a crash after an operation COMPLETED,
 * or while Prometheus was down, is made good by the next look, and the first look after a start
 * always reloads. An instance an operation holds keeps its files until the operation ends.
 */
import type { Logger } from 'pino';
import type { Config } from '../../config/load.ts';
import { nowIso } from '../../lcm/model.ts';
import { LCM_STORES, type LcmStore } from '../../lcm/store.ts';
import type { CallbackClient } from '../../notify/delivery/callback-client.ts';
import type { Database } from '../../store/db/database.ts';
import { basesIn, fileBase, RULES_EXT, removeIfAny, TARGETS_EXT, writeIfChanged } from './files.ts';
import { reloadPrometheus } from './reload.ts';
import { renderRules, renderTargets } from './render.ts';
import { loadRuleTemplate, type RuleTemplate } from './template.ts';
import { provisionedVnfcs, withMonitoringMetadata } from './vnfcs.ts';

const PAGE = 200;

/**
 * Prometheus passes file_sd changes to its scrape manager at most every 5 s, and a reload in
 * between loses them (a removed target stays): a reload waits this long after a targets file
 * changed. Targets alone need no reload (file_sd watches its files); rules do.
 */
const RELOAD_AFTER_TARGETS_MS = 6000;

export interface ProvisioningDeps {
  config: Config;
  db: Database;
  callbacks: CallbackClient;
  logger: Logger;
}

/** Whether the instance's instantiate request turned Prometheus off (additionalParams.monitoring). */
async function optedOut(deps: ProvisioningDeps, store: LcmStore, instanceId: string): Promise<boolean> {
  const row = await deps.db.kysely
    .selectFrom(store.opOccs)
    .select('operation_params')
    .where('vnf_instance_id', '=', instanceId)
    .where('operation', '=', 'INSTANTIATE')
    .where('operation_state', '=', 'COMPLETED')
    .orderBy('start_time', 'desc')
    .limit(1)
    .executeTakeFirst();
  const params = row ? (JSON.parse(row.operation_params) as Record<string, unknown>) : {};
  const monitoring = (params.additionalParams as Record<string, unknown> | undefined)?.monitoring;
  return (monitoring as Record<string, unknown> | undefined)?.prometheus === false;
}

export class PrometheusProvisioner {
  readonly #deps: ProvisioningDeps;
  readonly #template: RuleTemplate;
  /** The instance version whose files are written (and whether it has files), per instance id. */
  #done = new Map<string, { version: number; provisioned: boolean }>();
  /** A reload is owed: true at start (files may have changed while Bosun was down). */
  #reloadOwed = true;
  /** When a targets file last changed (ms). */
  #targetsChangedAt = 0;

  constructor(deps: ProvisioningDeps) {
    this.#deps = deps;
    this.#template = loadRuleTemplate(deps.config.fm.prometheus.ruleTemplate);
  }

  async look(): Promise<void> {
    const { sdDir, rulesDir, url } = this.#deps.config.fm.prometheus;
    const keep = new Set<string>();
    const seen = new Map<string, { version: number; provisioned: boolean }>();
    const changed = { targets: false, rules: false };
    for (const store of LCM_STORES) {
      let after = '';
      for (;;) {
        const rows = await this.#deps.db.kysely
          .selectFrom(store.instances)
          .select(['id', 'version', 'busy_op_occ_id'])
          .where('instantiation_state', '=', 'INSTANTIATED')
          .where('id', '>', after)
          .orderBy('id')
          .limit(PAGE)
          .execute();
        for (const row of rows) {
          const base = fileBase(row.id);
          const done = this.#done.get(row.id);
          if (row.busy_op_occ_id || done?.version === Number(row.version)) {
            keep.add(base);
            if (done) seen.set(row.id, done);
            continue;
          }
          try {
            const outcome = await this.#provision(store, row.id);
            changed.targets ||= outcome.changed.targets;
            changed.rules ||= outcome.changed.rules;
            if (outcome.provisioned) keep.add(base);
            seen.set(row.id, { version: outcome.version, provisioned: outcome.provisioned });
          } catch (err) {
            // Its files stay as they are; the next look tries again.
            keep.add(base);
            this.#deps.logger.warn(
              { err, instanceId: row.id },
              'Prometheus provisioning of an instance failed',
            );
          }
        }
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1].id;
      }
    }
    this.#done = seen;
    for (const [dir, ext, kind] of [
      [sdDir, TARGETS_EXT, 'targets'],
      [rulesDir, RULES_EXT, 'rules'],
    ] as const) {
      if (!dir) continue;
      for (const base of await basesIn(dir, ext))
        if (!keep.has(base) && (await removeIfAny(dir, base + ext))) changed[kind] = true;
    }
    if (changed.targets) this.#targetsChangedAt = Date.now();
    if (changed.rules) this.#reloadOwed = true;
    if (!this.#reloadOwed || !url || Date.now() - this.#targetsChangedAt < RELOAD_AFTER_TARGETS_MS) return;
    try {
      await reloadPrometheus(this.#deps.callbacks, url);
      this.#reloadOwed = false;
    } catch (err) {
      this.#deps.logger.warn({ err }, 'Prometheus reload failed; it is tried again at the next look');
    }
  }

  /** Writes (or removes, when opted out) one instance's files; what it did. */
  async #provision(
    store: LcmStore,
    instanceId: string,
  ): Promise<{ changed: { targets: boolean; rules: boolean }; provisioned: boolean; version: number }> {
    const { sdDir, rulesDir, targetPort } = this.#deps.config.fm.prometheus;
    const instance = await store.findInstance(this.#deps.db.kysely, instanceId);
    if (instance?.instantiationState !== 'INSTANTIATED' || instance.busyOpOccId)
      return { changed: { targets: false, rules: false }, provisioned: true, version: -1 };
    const base = fileBase(instanceId);
    if (await optedOut(this.#deps, store, instanceId)) {
      const targets = await removeIfAny(sdDir, base + TARGETS_EXT);
      const rules = rulesDir ? await removeIfAny(rulesDir, base + RULES_EXT) : false;
      return { changed: { targets, rules }, provisioned: false, version: instance.version };
    }
    let { version, instantiatedVnfInfo: info } = instance;
    const filled = withMonitoringMetadata(info, targetPort);
    if (filled) {
      // Only if no operation took the instance meanwhile: its own save would win anyway.
      const saved = await this.#deps.db.kysely
        .updateTable(store.instances)
        .set({ instantiated_vnf_info: JSON.stringify(filled), updated_at: nowIso(), version: version + 1 })
        .where('id', '=', instanceId)
        .where('version', '=', version)
        .where('busy_op_occ_id', 'is', null)
        .executeTakeFirst();
      if (Number(saved.numUpdatedRows) !== 1)
        return { changed: { targets: false, rules: false }, provisioned: true, version: -1 };
      version += 1;
      info = filled;
    }
    const vnfcs = provisionedVnfcs(info, targetPort);
    const targets = await writeIfChanged(sdDir, base + TARGETS_EXT, renderTargets(instanceId, vnfcs));
    const rules = rulesDir
      ? await writeIfChanged(rulesDir, base + RULES_EXT, renderRules(instanceId, vnfcs, this.#template))
      : false;
    return { changed: { targets, rules }, provisioned: true, version };
  }
}
