/**
 * The alarms, subscriptions and VIMs pages in a real browser against a real `bosun serve` with
 * the simulated VIM: a server crashed from the fault panel becomes an alarm (driver health) whose
 * automatic heal the alarm links to, acknowledged and taken back from the page; a subscription
 * whose callback failed shows its dead notification with the reason, and Redeliver sends it again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createInstance, H, INSTANTIATE, onboardOnce, runTask, V2 } from '../http/vnflcm/lcm-support.ts';
import { type Receiver, startReceiver } from '../notify/delivery/support.ts';
import { ABOVE_THE_STORE } from '../support/databases.ts';
import { http } from '../support/http.ts';
import {
  type Bosun,
  ensureConsoleBuilt,
  launchBrowser,
  openConsole,
  screenshot,
  startBosun,
} from './harness.ts';

let browser: Browser;
before(async () => {
  ensureConsoleBuilt();
  browser = await launchBrowser();
});
after(() => browser?.close());

for (const dialect of ABOVE_THE_STORE) {
  describe(`web console alarms and subscriptions (${dialect})`, () => {
    let bosun: Bosun;
    let vnfdId: string;
    let receiver: Receiver;
    let refuse = true;
    before(async () => {
      receiver = await startReceiver(() => ({ status: refuse ? 500 : 204 }));
      bosun = await startBosun(dialect, {
        BOSUN_FM_HEALTH_INTERVAL_MS: '300',
        BOSUN_FM_AUTO_HEAL_WINDOW_MS: '300',
        BOSUN_OUTBOUND_ALLOW: '127.0.0.1',
        BOSUN_NOTIFY_CALLBACK_TEST: 'false',
        BOSUN_NOTIFY_MAX_ATTEMPTS: '2',
        BOSUN_NOTIFY_INITIAL_BACKOFF_MS: '50',
        BOSUN_NOTIFY_MAX_BACKOFF_MS: '100',
      });
      vnfdId = (await onboardOnce(bosun.url)).vnfdId as string;
    });
    after(async () => {
      await bosun.stop();
      await receiver.close();
    });

    test('a dead notification is shown with its reason, and Redeliver sends it', async () => {
      const sub = await http<{ id: string }>(bosun.url, 'POST', `${V2}/subscriptions`, {
        headers: H,
        body: {
          callbackUri: `${receiver.url}/lcm`,
          filter: { notificationTypes: ['VnfIdentifierCreationNotification'] },
        },
      });
      assert.equal(sub.status, 201, sub.text);
      await createInstance(bosun.url, vnfdId, { vnfInstanceName: 'console-delivery' });
      await receiver.waitFor((r) => r.notifications().length === 2, 'both attempts');

      const ui = await openConsole(browser, `${bosun.url}/ui/subscriptions`);
      const { page } = ui;
      await page
        .getByRole('button', { name: `Delivery to ${receiver.url}/lcm, subscription ${sub.body.id}` })
        .click();
      const panel = page.locator('section.panel');
      await panel.getByRole('heading', { name: `Delivery to ${receiver.url}/lcm` }).waitFor();
      const dead = panel.getByRole('table', { name: 'Dead notifications' });
      await dead.getByText('VnfIdentifierCreationNotification').waitFor();
      await dead.getByText(`POST ${receiver.url}/lcm answered HTTP 500`).waitFor();
      await screenshot(page, 'subscription-dead');

      refuse = false;
      await panel.getByRole('button', { name: 'Redeliver dead notifications' }).click();
      await panel.getByRole('status').getByText('1 dead notification queued again.').waitFor();
      await receiver.waitFor((r) => r.notifications().length === 3, 'the redelivered notification');
      const sent = receiver.notifications();
      assert.equal(sent[2].body?.id, sent[0].body?.id, 'the same notification, sent again');
      // Delivered: the page, refreshed, shows no dead notification and one delivered.
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page
        .getByRole('button', { name: `Delivery to ${receiver.url}/lcm, subscription ${sub.body.id}` })
        .click();
      await panel.getByText('No dead notification.').waitFor();
      assert.equal(
        await panel.getByRole('button', { name: 'Redeliver dead notifications' }).isDisabled(),
        true,
        'nothing left to redeliver',
      );
      ui.assertClean();
      await ui.close();
    });

    test('a server crashed from the fault panel: its alarm links to the heal, and is acknowledged', async () => {
      const inst = await createInstance(bosun.url, vnfdId, { vnfInstanceName: 'console-alarm' });
      assert.equal(
        (await runTask(bosun.url, inst.id, 'instantiate', INSTANTIATE)).operationState,
        'COMPLETED',
      );
      const patched = await http(bosun.url, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
        headers: { ...H, 'content-type': 'application/merge-patch+json' },
        body: { vnfConfigurableProperties: { isAutohealEnabled: true } },
      });
      assert.equal(patched.status, 202, patched.text);
      const servers = await http<{ id: string; name: string; host: string }[]>(
        bosun.url,
        'GET',
        `/bosun/v1/sim/servers?instanceId=${inst.id}`,
      );
      const victim = servers.body[0];

      const ui = await openConsole(browser, `${bosun.url}/ui/vims`);
      const { page } = ui;
      const crash = page.getByRole('group', { name: 'Crash a server' });
      await crash.getByLabel('Host', { exact: true }).selectOption(victim.host);
      await crash.getByLabel('Server', { exact: true }).selectOption(victim.id);
      await crash.getByRole('button', { name: 'Crash server' }).click();
      await page.getByRole('status').getByText(`Server ${victim.id} crashed.`).waitFor();

      await page.getByRole('link', { name: 'Alarms' }).click();
      await page.getByRole('heading', { name: 'Alarms' }).waitFor();
      // Raised by the next health look, healed after the auto-heal window: refreshed until the heal shows.
      const heal = page.getByRole('link', { name: /^Heal [0-9a-f]{8}$/ });
      // Two minutes: on a loaded machine the look and the heal each wait their turn.
      for (const until = Date.now() + 120_000; Date.now() < until && (await heal.count()) === 0; ) {
        await page.waitForTimeout(200);
        await page.getByRole('button', { name: 'Refresh' }).click();
      }
      await heal.first().waitFor();
      const alarms = await http<{ id: string; vnfcInstanceIds?: string[]; faultDetails?: string[] }[]>(
        bosun.url,
        'GET',
        `/vnffm/v1/alarms?filter=(eq,managedObjectId,${inst.id})`,
        { headers: { Version: '1.3.0' } },
      );
      assert.equal(alarms.body.length, 1, JSON.stringify(alarms.body));
      const { id: alarmId, vnfcInstanceIds = [] } = alarms.body[0];
      assert.ok(vnfcInstanceIds.length > 0);
      const row = page
        .getByRole('row')
        .filter({ has: page.getByRole('button', { name: `Acknowledge alarm ${alarmId}` }) });
      assert.equal(
        await row.getByRole('link', { name: inst.id }).getAttribute('href'),
        `/ui/instances/${inst.id}`,
      );
      for (const vnfc of vnfcInstanceIds) {
        assert.equal(
          await row.getByRole('link', { name: vnfc }).getAttribute('href'),
          `/ui/instances/${inst.id}#vnfc-${vnfc}`,
        );
      }

      await page.getByRole('button', { name: `Acknowledge alarm ${alarmId}` }).click();
      await page.getByRole('status').getByText(`Alarm ${alarmId} acknowledged.`).waitFor();
      await page.getByRole('button', { name: `Unacknowledge alarm ${alarmId}` }).waitFor();
      const acked = await http<{ ackState: string }>(bosun.url, 'GET', `/vnffm/v1/alarms/${alarmId}`, {
        headers: { Version: '1.3.0' },
      });
      assert.equal(acked.body.ackState, 'ACKNOWLEDGED');
      await screenshot(page, 'alarms');
      await page.getByRole('button', { name: `Unacknowledge alarm ${alarmId}` }).click();
      await page.getByRole('button', { name: `Acknowledge alarm ${alarmId}` }).waitFor();

      await heal.first().click();
      await page.getByRole('heading', { name: /^HEAL / }).waitFor();
      ui.assertClean();
      await ui.close();
    });
  });
}
