/**
 * The `fm` configuration keys: who may post Alertmanager webhooks and how much they may send,
 * the driver health check, and auto-heal's batching window, back-off and limit. Its own file so
 * the schema's other sections stay short.
 */
import { Type } from '@sinclair/typebox';
import { secret } from './secret.ts';

/** One Alertmanager receiver allowed to post to /alert: its credentials (bearer or Basic). */
const AlertReceiver = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128, description: 'names the receiver in logs' }),
    bearerToken: Type.Optional(
      secret(Type.String({ minLength: 16, maxLength: 4096, description: 'Authorization: Bearer <token>' })),
    ),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Basic user name' })),
    password: Type.Optional(
      secret(Type.String({ minLength: 16, maxLength: 4096, description: 'Basic password' })),
    ),
    project: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'only alerts about VNF instances of this project are taken (empty: every project)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Prometheus provisioning from the lifecycle (fm/prometheus/): off while sdDir is empty. */
const PrometheusProvisioning = Type.Object(
  {
    sdDir: Type.String({
      default: '',
      maxLength: 4096,
      description:
        'folder of Prometheus file_sd_configs: one bosun-<instance>.json of targets per VNF instance; empty: no provisioning',
    }),
    rulesDir: Type.String({
      default: '',
      maxLength: 4096,
      description:
        'folder of Prometheus rule_files: one bosun-<instance>.yml of alert rules per VNF instance; empty: no rules',
    }),
    url: Type.String({
      default: '',
      maxLength: 2048,
      description:
        'Prometheus base URL (started with --web.enable-lifecycle): POST <url>/-/reload after a change, retried until it answers; empty: never reloaded',
    }),
    ruleTemplate: Type.String({
      default: '',
      maxLength: 4096,
      description:
        'YAML file: a list of Prometheus alerting rules written for every VNFC, with {{vnfInstanceId}} {{vduId}} {{vnfcId}} {{hostname}} {{target}}; empty: the built-in rule (up == 0 or bosun_sim_server_up == 0)',
    }),
    targetPort: Type.Integer({
      minimum: 1,
      maximum: 65535,
      default: 9100,
      description:
        "port of a VNFC's exporter, with its first IP address, when its metadata has no metricsTarget",
    }),
    syncIntervalMs: Type.Integer({
      minimum: 100,
      default: 5000,
      description: 'how often the files are brought in line with the instances (and a failed reload retried)',
    }),
  },
  { additionalProperties: false, default: {} },
);

export const FmConfigSchema = Type.Object(
  {
    alertReceivers: Type.Array(AlertReceiver, {
      default: [],
      maxItems: 100,
      description:
        'who may post to /alert: [{name, bearerToken} or {name, username, password}, optional project]; none: /alert refuses everyone',
    }),
    alertMaxBodyBytes: Type.Integer({
      minimum: 1024,
      maximum: 67108864,
      default: 4194304,
      description: 'largest Alertmanager webhook body (bytes)',
    }),
    alertMaxBatch: Type.Integer({
      minimum: 1,
      maximum: 100000,
      default: 1000,
      description: 'most alerts in one webhook; a larger batch is refused whole (413)',
    }),
    healthIntervalMs: Type.Integer({
      minimum: 0,
      default: 30000,
      description:
        "how often the VIM drivers' health of every STARTED instance is checked (alarms raised and cleared); 0: never",
    }),
    healthConcurrency: Type.Integer({
      minimum: 1,
      maximum: 64,
      default: 4,
      description: 'instances whose health is checked at once',
    }),
    autoHealWindowMs: Type.Integer({
      minimum: 0,
      default: 20000,
      description: 'heal-kind alarms of an instance arriving within this window start one heal',
    }),
    autoHealMaxAttempts: Type.Integer({
      minimum: 1,
      maximum: 100,
      default: 3,
      description: 'failed automatic heals of an instance before auto-heal gives up on its alarms',
    }),
    autoHealBackoffMs: Type.Integer({
      minimum: 0,
      default: 60000,
      description: 'wait after a failed automatic heal before the next (doubled after each failure)',
    }),
    prometheus: PrometheusProvisioning,
  },
  { additionalProperties: false, default: {} },
);
