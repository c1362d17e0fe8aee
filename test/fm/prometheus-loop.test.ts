/**
 * The whole monitoring loop with the real thing, on SQLite and PostgreSQL: a real Prometheus
 * scrapes the simulated VIM's /metrics, an injected server crash fires its alert rule, a real
 * Alertmanager posts the alert to Bosun's /alert with a bearer token, the alarm appears in
 * /vnffm/v1/alarms and its AlarmNotification reaches a subscriber, auto-heal runs a HEAL op occ
 * to COMPLETED, the server comes back, the alert resolves and the alarm clears, with its
 * AlarmClearedNotification delivered. The driver health check is off: Prometheus alone drives it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LCM_TEST_CONFIG, SIM } from '../http/vnflcm/lcm-server.ts';
import { H, onboardOnce, V2, waitOpOcc } from '../http/vnflcm/lcm-support.ts';
import { type Receiver, startReceiver } from '../notify/delivery/support.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { monitoring } from '../support/prometheus.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import {
  alarmsOf,
  eventually,
  FM,
  healsOf,
  instantiated,
  RECEIVERS,
  TOKEN,
  vnfcsOf,
} from './alert-support.ts';

/** The rule an operator writes for the simulated VIM (README: Fault management and auto-heal). */
const RULES = `groups:
  - name: bosun-sim
    rules:
      - alert: ServerDown
        expr: bosun_sim_server_up{vnf_instance_id!=""} == 0
        labels:
          function_type: auto_heal
          perceived_severity: CRITICAL
          event_type: EQUIPMENT_ALARM
        annotations:
          probable_cause: 'server {{ $labels.server_name }} is down'
          fault_type: Server Down
          fault_details: 'host {{ $labels.host }}, zone {{ $labels.zone }}'
`;

const alertmanagerConfig = (bosun: string) => `route:
  receiver: bosun
  group_by: [vnf_instance_id]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: bosun
    webhook_configs:
      - url: ${bosun}/alert
        send_resolved: true
        http_config:
          authorization:
            type: Bearer
            credentials: ${TOKEN}
`;

for (const dialect of DIALECTS) {
  describe(`Prometheus and Alertmanager loop on ${dialect}`, () => {
    let server: TestServer;
    let receiver: Receiver;
    let vnfdId: string;
    before(async () => {
      receiver = await startReceiver();
      server = await startTestServer(dialect, {
        config: {
          ...LCM_TEST_CONFIG,
          outbound: { allow: ['127.0.0.0/8'] },
          notify: { callbackTest: false, initialBackoffMs: 20, maxBackoffMs: 200 },
          fm: { alertReceivers: RECEIVERS, autoHealWindowMs: 1000, healthIntervalMs: 0 },
        },
      });
      vnfdId = (await onboardOnce(server.url)).vnfdId as string;
      const monitor = await monitoring();
      await monitor.configureAlertmanager(alertmanagerConfig(server.url));
      await monitor.configurePrometheus({
        scrapeConfigs: `  - job_name: bosun-sim\n    metrics_path: ${SIM}/metrics\n    static_configs: [{ targets: ['${new URL(server.url).host}'] }]\n`,
        rules: RULES,
      });
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    test('crash → alert → alarm and notification → auto-heal → recovery → alarm cleared', async () => {
      const instance = await instantiated(server.url, vnfdId, true);
      const sub = await http(server.url, 'POST', '/vnffm/v1/subscriptions', {
        headers: FM,
        body: {
          callbackUri: `${receiver.url}/fm`,
          filter: { vnfInstanceSubscriptionFilter: { vnfInstanceIds: [instance.id] } },
        },
      });
      assert.equal(sub.status, 201, sub.text);
      const [crashed] = vnfcsOf(instance);
      await http(server.url, 'POST', `${SIM}/servers/${crashed.serverId}/crash`, {
        body: { reason: 'kernel panic' },
      });

      const alarm = await eventually(
        'the alarm from Alertmanager',
        async () => (await alarmsOf(server.url, instance.id))[0],
        60_000,
      );
      assert.equal(alarm.rootCauseFaultyResource.faultyResource.resourceId, crashed.serverId);
      assert.deepEqual(alarm.vnfcInstanceIds, [crashed.vnfcInfoId]);
      assert.equal(alarm.perceivedSeverity, 'CRITICAL');
      assert.equal(alarm.probableCause, `server ${crashed.serverName} is down`);
      const notes = () =>
        receiver
          .notifications()
          .map((n) => n.body as { notificationType: string; alarm?: { id: string }; alarmId?: string });
      await receiver.waitFor(
        () => notes().some((n) => n.notificationType === 'AlarmNotification' && n.alarm?.id === alarm.id),
        'AlarmNotification',
        30_000,
      );

      const heal = await eventually(
        'the automatic heal',
        async () => (await healsOf(server.url, instance.id))[0],
        30_000,
      );
      assert.equal(heal.isAutomaticInvocation, true);
      assert.deepEqual(heal.operationParams.vnfcInstanceId, [crashed.vnfcInfoId]);
      assert.equal((await waitOpOcc(server.url, heal.id, undefined, 60_000)).operationState, 'COMPLETED');
      const healed = (
        await http<{ status: string }[]>(server.url, 'GET', `${SIM}/servers?instanceId=${instance.id}`)
      ).body;
      assert.ok(
        healed.every((s) => s.status === 'ACTIVE'),
        JSON.stringify(healed),
      );

      const cleared = await eventually(
        'the alarm cleared by the resolved alert',
        async () => {
          const [a] = await alarmsOf(server.url, instance.id);
          return a.alarmClearedTime ? a : undefined;
        },
        90_000,
      );
      assert.equal(cleared.id, alarm.id);
      await receiver.waitFor(
        () =>
          notes().some((n) => n.notificationType === 'AlarmClearedNotification' && n.alarmId === alarm.id),
        'AlarmClearedNotification',
        30_000,
      );
      assert.equal((await healsOf(server.url, instance.id)).length, 1, 'one heal');
      const shown = await http(server.url, 'GET', `${V2}/vnf_instances/${instance.id}`, { headers: H });
      assert.equal(shown.status, 200);
    });
  });
}
