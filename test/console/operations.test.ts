/**
 * The operations page in a real browser against a real `bosun serve` with the simulated VIM: the
 * zones made full from the VIMs page's fault panel fail an instantiate, the operation's live
 * timeline shows the zones tried and FAILED_TEMP, the buttons are those its state allows, and
 * Retry (once there is room again) completes it — the new events arriving through the stream.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { idOf } from '../http/vnflcm/lcm-client.ts';
import { H, INSTANTIATE, onboardOnce, V2 } from '../http/vnflcm/lcm-support.ts';
import { MAJOR } from '../http/vnflcm/majors.ts';
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

const ZONES = ['zone-a', 'zone-b'];

/** What a task button's description says (why it is disabled, or what it does). */
async function why(page: Page, name: string): Promise<string | null> {
  const id = await page.getByRole('button', { name, exact: true }).getAttribute('aria-describedby');
  return page.locator(`#${id}`).textContent();
}

let browser: Browser;
before(async () => {
  ensureConsoleBuilt();
  browser = await launchBrowser();
});
after(() => browser?.close());

for (const dialect of ABOVE_THE_STORE) {
  describe(`web console operations (${dialect})`, () => {
    let bosun: Bosun;
    let vnfdId: string;
    before(async () => {
      bosun = await startBosun(dialect);
      vnfdId = (await onboardOnce(bosun.url)).vnfdId as string;
    });
    after(() => bosun.stop());

    test('zones made full from the fault panel: FAILED_TEMP live in the timeline, Retry completes', async () => {
      const ui = await openConsole(browser, `${bosun.url}/ui/vims`);
      const { page } = ui;
      await page.getByRole('heading', { name: 'Fault injection (simulated VIM)' }).waitFor();
      for (const zone of ZONES) {
        await page.getByRole('button', { name: `Make ${zone} full` }).click();
        await page.getByRole('status').getByText(`Zone ${zone} is full.`).waitFor();
      }
      await page.getByRole('button', { name: `Restore ${ZONES[1]}` }).waitFor();

      const created = await http<{ id: string }>(bosun.url, 'POST', `${V2}/vnf_instances`, {
        headers: H,
        body: { vnfdId, vnfInstanceName: 'console-zones' },
      });
      assert.equal(created.status, 201, created.text);
      const started = await http(bosun.url, 'POST', `${V2}/vnf_instances/${created.body.id}/instantiate`, {
        headers: H,
        body: INSTANTIATE,
      });
      assert.equal(started.status, 202, started.text);
      const opId = idOf(started.headers.get('location'));

      // From the list (filtered by operation) to the operation.
      await page.getByRole('link', { name: 'Operations' }).click();
      await page.getByRole('combobox', { name: /^Operation/ }).selectOption('INSTANTIATE');
      await page.getByRole('link', { name: `INSTANTIATE ${opId}` }).click();
      const timeline = page.getByRole('list', { name: 'Operation timeline' });
      await timeline.getByText('Operation FAILED_TEMP').waitFor();
      for (const zone of ZONES)
        await timeline
          .getByText(new RegExp(`Zone ${zone} had no room`))
          .first()
          .waitFor();
      await page
        .getByRole('alert')
        .getByText(/No valid host was found/)
        .first()
        .waitFor();
      const task = (name: string) => page.getByRole('button', { name, exact: true });
      assert.equal(await task('Retry').isEnabled(), true);
      assert.equal(await task('Roll back').isEnabled(), true);
      assert.equal(await task('Mark failed').isEnabled(), true);
      assert.equal(await task('Cancel').isDisabled(), true);
      assert.equal(await task('Cancel now').isDisabled(), true);
      assert.equal(
        await why(page, 'Cancel'),
        'Only STARTING, PROCESSING, ROLLING_BACK operations can be cancelled; this one is FAILED_TEMP.',
        'a disabled task says why',
      );
      await screenshot(page, 'operation-failed-temp');

      // Room again (the panel's API), then Retry from the button: the stream brings the rest.
      for (const zone of ZONES) {
        assert.equal((await http(bosun.url, 'POST', `/bosun/v1/sim/zones/${zone}/restore`)).status, 200);
      }
      await task('Retry').click();
      await timeline.getByText('Operation COMPLETED').waitFor({ timeout: 20_000 });
      await page.locator('dl.facts').getByText('COMPLETED', { exact: true }).waitFor();
      assert.equal(await task('Retry').isDisabled(), true);
      assert.equal(await task('Cancel').isDisabled(), true);
      const op = await http<{ operationState: string }>(bosun.url, 'GET', `${V2}/vnf_lcm_op_occs/${opId}`, {
        headers: H,
      });
      assert.equal(op.body.operationState, 'COMPLETED');
      await screenshot(page, 'operation-retried');
      ui.assertClean();
      await ui.close();
    });

    test('a hung step: Cancel offered while it runs, Cancel now aborts it, Roll back undoes it', async () => {
      const hang = await http(bosun.url, 'POST', '/bosun/v1/sim/faults', {
        body: { kind: 'server.create', action: 'hang', count: 1, timeoutMs: 60_000 },
      });
      assert.equal(hang.status, 201, hang.text);
      const created = await http<{ id: string }>(bosun.url, 'POST', `${V2}/vnf_instances`, {
        headers: H,
        body: { vnfdId, vnfInstanceName: 'console-cancel' },
      });
      const started = await http(bosun.url, 'POST', `${V2}/vnf_instances/${created.body.id}/instantiate`, {
        headers: H,
        body: INSTANTIATE,
      });
      assert.equal(started.status, 202, started.text);
      const ui = await openConsole(
        browser,
        `${bosun.url}/ui/operations/${idOf(started.headers.get('location'))}`,
      );
      const { page } = ui;
      const timeline = page.getByRole('list', { name: 'Operation timeline' });
      const task = (name: string) => page.getByRole('button', { name, exact: true });
      await timeline.getByText('Step infra started').waitFor();
      await page.locator('dl.facts').getByText('PROCESSING', { exact: true }).waitFor();
      // The step has reached the hung call (its fault taken): Cancel now aborts that call, and
      // no fault is left armed to hang the next test's instantiate.
      for (;;) {
        const pending = await http<unknown[]>(bosun.url, 'GET', '/bosun/v1/sim/faults');
        if (pending.body.length === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(await task('Cancel').isEnabled(), true);
      assert.equal(await task('Cancel now').isEnabled(), true);
      assert.equal(
        await why(page, 'Cancel now'),
        'Cancel now stops the operation at once, aborting the step in flight.',
      );
      for (const name of ['Retry', 'Roll back', 'Mark failed'])
        assert.equal(await task(name).isDisabled(), true, name);
      await task('Cancel now').click();
      await timeline.getByText('Operation FAILED_TEMP').waitFor({ timeout: 20_000 });
      await task('Roll back').and(page.locator(':enabled')).waitFor();
      await task('Roll back').click();
      await timeline.getByText('Operation ROLLED_BACK').waitFor({ timeout: 20_000 });
      await page.locator('dl.facts').getByText('ROLLED_BACK', { exact: true }).waitFor();
      ui.assertClean();
      await ui.close();
    });

    test('a finished operation offers no task; a v1 one is listed and shown; an unknown one shows the API detail', async () => {
      const list = await http<{ id: string }[]>(
        bosun.url,
        'GET',
        `${V2}/vnf_lcm_op_occs?filter=(eq,operationState,COMPLETED)`,
        { headers: H },
      );
      const done = list.body[0];
      assert.ok(done, 'the operation the test before completed');
      const ui = await openConsole(browser, `${bosun.url}/ui/operations/${done.id}`);
      const { page } = ui;
      await page.getByRole('list', { name: 'Operation timeline' }).getByText('Operation COMPLETED').waitFor();
      for (const name of ['Retry', 'Roll back', 'Mark failed', 'Cancel', 'Cancel now']) {
        assert.equal(await page.getByRole('button', { name, exact: true }).isDisabled(), true, name);
      }
      ui.assertClean();
      await ui.close();

      // An op occ of Tacker's v1 API: listed with the API chosen, its page read from /vnflcm/v1.
      const v1 = MAJOR.v1.client;
      const inst = await v1.createInstance(bosun.url, vnfdId, { vnfInstanceName: 'console-v1' });
      const v1Op = await v1.runTask(bosun.url, inst.id, 'instantiate', INSTANTIATE);
      assert.equal(v1Op.operationState, 'COMPLETED');
      const v1Ui = await openConsole(browser, `${bosun.url}/ui/operations`);
      await v1Ui.page.getByLabel('API').selectOption('v1');
      await v1Ui.page.getByRole('link', { name: `INSTANTIATE ${v1Op.id}` }).click();
      await v1Ui.page
        .getByRole('list', { name: 'Operation timeline' })
        .getByText('Operation COMPLETED')
        .waitFor();
      await v1Ui.page.locator('dl.facts').getByText('COMPLETED', { exact: true }).waitFor();
      assert.equal(new URL(v1Ui.page.url()).search, '?api=v1');
      v1Ui.assertClean();
      await v1Ui.close();

      const missing = '00000000-0000-4000-8000-000000000000';
      const unknown = await openConsole(browser, `${bosun.url}/ui/operations/${missing}`);
      const alert = unknown.page.getByRole('alert').first();
      await alert.waitFor();
      assert.match(
        (await alert.textContent()) ?? '',
        new RegExp(`^404.*operation occurrence ${missing} does not exist`),
      );
      await unknown.close();
    });
  });
}
