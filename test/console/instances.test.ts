/**
 * The VNF instance pages of the web console in headless Chromium against a real `bosun serve`
 * on the simulated VIM: create, instantiate, scale out, heal a VNFC and terminate from the
 * forms the VNFD generates, the topology drawn; a modify that meets a newer ETag (412) says so
 * and reloads; and with OAuth 2.0 another project's user sees none of the first's resources.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createPkg, onboard, putZip, sample, waitSettled } from '../http/vnfpkgm/support.ts';
import { ABOVE_THE_STORE } from '../support/databases.ts';
import { http } from '../support/http.ts';
import {
  addClient,
  type Bosun,
  ensureConsoleBuilt,
  launchBrowser,
  openConsole,
  screenshot,
  signIn,
  startBosun,
} from './harness.ts';

const MAIN_SAMPLE = 'sol_v2_common__basic_lcms_max_individual_vnfc.zip';
const LCM = { Version: '2.0.0' };

interface Instance {
  id: string;
  vnfInstanceName?: string;
  instantiationState: string;
  instantiatedVnfInfo?: {
    scaleStatus?: { aspectId: string; scaleLevel: number }[];
    vnfcInfo?: { id: string; vduId: string }[];
    vnfcResourceInfo?: { id: string; vduId: string }[];
  };
}

async function instanceOf(bosun: Bosun, id: string, headers: Record<string, string> = {}) {
  const res = await http<Instance>(bosun.url, 'GET', `/vnflcm/v2/vnf_instances/${id}`, {
    headers: { ...LCM, ...headers },
  });
  assert.equal(res.status, 200, res.text);
  return res;
}

/** Opens an operation's form, fills it with `fill`, sends it and waits for its op occ to complete. */
async function runOperation(page: Page, label: string, fill: () => Promise<void>, operation: string) {
  await page
    .getByRole('toolbar', { name: 'Operations' })
    .getByRole('button', { name: label, exact: true })
    .click();
  const form = page.getByRole('region', { name: label });
  await form.waitFor();
  await fill();
  await page.getByText(`${operation} COMPLETED`, { exact: true }).waitFor({ timeout: 60_000 });
}

let browser: Browser;
before(async () => {
  ensureConsoleBuilt();
  browser = await launchBrowser();
});
after(() => browser?.close());

for (const dialect of ABOVE_THE_STORE) {
  describe(`web console VNF instances (${dialect})`, () => {
    let bosun: Bosun;
    before(async () => {
      bosun = await startBosun(dialect);
      const pkg = await onboard(bosun.url, sample(MAIN_SAMPLE));
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
    });
    after(() => bosun.stop());

    test('create, instantiate, scale out, heal a VNFC, scale to level and terminate from the forms', async () => {
      const ui = await openConsole(browser, `${bosun.url}/ui/instances`);
      const { page } = ui;
      page.on('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Create instance' }).click();
      const create = page.getByRole('form', { name: 'Create a VNF instance' });
      assert.match(
        (await create.getByLabel('VNF package').locator('option:checked').textContent()) ?? '',
        /Sample VNF/,
      );
      await create.getByLabel('Name').fill('console-web-1');
      await create.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/ui\/instances\/[0-9a-f-]{36}$/);
      const id = page.url().split('/').pop()!;
      await page.getByRole('heading', { name: 'console-web-1' }).waitFor();
      await page.getByText('not instantiated', { exact: true }).waitFor();

      // Instantiate: only the VNFD's flavours and levels are offered.
      await runOperation(
        page,
        'Instantiate',
        async () => {
          const form = page.getByRole('region', { name: 'Instantiate' });
          // The choices come with the VNFD, fetched when the form opens.
          await form
            .getByLabel('Instantiation level')
            .locator('option')
            .first()
            .waitFor({ state: 'attached' });
          const flavours = await form.getByLabel('Deployment flavour').locator('option').allTextContents();
          assert.deepEqual(
            flavours.map((f) => f.split(' ')[0]),
            ['simple'],
          );
          const levels = await form.getByLabel('Instantiation level').locator('option').allTextContents();
          assert.ok(
            levels.some((l) => /\(default\)/.test(l)),
            levels.join('|'),
          );
          await form.getByRole('button', { name: 'Instantiate' }).click();
        },
        'INSTANTIATE',
      );
      await page.getByText('instantiated', { exact: true }).waitFor();
      const topology = page.getByRole('img', { name: /VNFCs in \d+ zone/ });
      await topology.waitFor();
      let inst = (await instanceOf(bosun, id)).body;
      const before = inst.instantiatedVnfInfo?.vnfcResourceInfo?.length ?? 0;
      assert.equal(await page.locator('svg.topology g.vnfc-node').count(), before);
      await screenshot(page, `instance-${dialect}`);

      // Scale out one step: the aspect shows its current and maximum level.
      const aspect = inst.instantiatedVnfInfo?.scaleStatus?.[0];
      assert.ok(aspect);
      await runOperation(
        page,
        'Scale',
        async () => {
          const form = page.getByRole('region', { name: 'Scale' });
          const option = await form.getByLabel('Aspect').locator('option').first().textContent();
          assert.match(option ?? '', new RegExp(`^${aspect.aspectId}: level ${aspect.scaleLevel} of \\d+$`));
          await form.getByLabel('Out (add)').check();
          await form.getByLabel(/^Steps/).fill('1');
          await form.getByRole('button', { name: 'Scale out' }).click();
        },
        'SCALE',
      );
      inst = (await instanceOf(bosun, id)).body;
      assert.equal(inst.instantiatedVnfInfo?.scaleStatus?.[0].scaleLevel, aspect.scaleLevel + 1);
      await page.waitForFunction(
        `document.querySelectorAll('svg.topology g.vnfc-node').length === ${inst.instantiatedVnfInfo?.vnfcResourceInfo?.length}`,
      );
      assert.ok((inst.instantiatedVnfInfo?.vnfcResourceInfo?.length ?? 0) > before);

      // Heal one VNFC, chosen among the instance's.
      const vnfc = inst.instantiatedVnfInfo?.vnfcInfo?.[0];
      assert.ok(vnfc);
      await runOperation(
        page,
        'Heal',
        async () => {
          const form = page.getByRole('region', { name: 'Heal' });
          await form.getByRole('checkbox', { name: new RegExp(vnfc.id) }).check();
          await form.getByLabel('Cause').fill('console test');
          await form.getByRole('button', { name: 'Heal 1 VNFC' }).click();
        },
        'HEAL',
      );
      const ops = await http<{ operation: string; operationParams: { vnfcInstanceId?: string[] } }[]>(
        bosun.url,
        'GET',
        `/vnflcm/v2/vnf_lcm_op_occs?filter=${encodeURIComponent(`(eq,vnfInstanceId,${id});(eq,operation,HEAL)`)}&fields=operationParams`,
        { headers: LCM },
      );
      assert.deepEqual(ops.body[0]?.operationParams.vnfcInstanceId, [vnfc.id]);

      // Scale back to level 0 of the aspect, chosen among 0 to its maximum.
      await runOperation(
        page,
        'Scale to level',
        async () => {
          const form = page.getByRole('region', { name: 'Scale to level' });
          await form
            .getByLabel(new RegExp(`^${aspect.aspectId} \\(now ${aspect.scaleLevel + 1}, at most \\d+\\)`))
            .selectOption('0');
          await form.getByRole('button', { name: 'Scale to level' }).click();
        },
        'SCALE_TO_LEVEL',
      );
      inst = (await instanceOf(bosun, id)).body;
      assert.equal(inst.instantiatedVnfInfo?.scaleStatus?.[0].scaleLevel, 0);

      // Terminate (asks first), then the instance can be deleted.
      await runOperation(
        page,
        'Terminate',
        async () => {
          const form = page.getByRole('region', { name: 'Terminate' });
          await form.getByLabel('Forceful (at once)').check();
          await form.getByRole('button', { name: 'Terminate' }).click();
        },
        'TERMINATE',
      );
      await page.getByText('not instantiated', { exact: true }).waitFor();
      assert.equal((await instanceOf(bosun, id)).body.instantiationState, 'NOT_INSTANTIATED');
      await page.getByRole('link', { name: 'VNF instances' }).click();
      await page
        .getByRole('table', { name: 'VNF instances' })
        .getByRole('link', { name: 'console-web-1' })
        .waitFor();
      await screenshot(page, `instances-${dialect}`);
      ui.assertClean();
      await ui.close();
    });

    test('a modify that meets a newer version of the instance says so and reloads it', async () => {
      const created = await http<Instance>(bosun.url, 'POST', '/vnflcm/v2/vnf_instances', {
        headers: LCM,
        body: {
          vnfdId: (
            await http<{ vnfdId: string }[]>(bosun.url, 'GET', '/vnfpkgm/v2/vnf_packages', {
              headers: { Version: '2.1.0' },
            })
          ).body[0].vnfdId,
          vnfInstanceName: 'etag-before',
        },
      });
      assert.equal(created.status, 201, created.text);
      const id = created.body.id;
      const ui = await openConsole(browser, `${bosun.url}/ui/instances/${id}`);
      const { page } = ui;
      await page.getByRole('heading', { name: 'etag-before' }).waitFor();
      await page.getByRole('button', { name: 'Modify' }).click();
      const form = page.getByRole('form', { name: 'Modify the instance' });
      await form.getByLabel('Name').fill('etag-mine');

      // Someone else renames it meanwhile.
      const current = await instanceOf(bosun, id);
      const other = await http(bosun.url, 'PATCH', `/vnflcm/v2/vnf_instances/${id}`, {
        headers: {
          ...LCM,
          'content-type': 'application/merge-patch+json',
          'if-match': current.headers.get('etag')!,
        },
        body: JSON.stringify({ vnfInstanceName: 'etag-theirs' }),
      });
      assert.equal(other.status, 202, other.text);
      for (let i = 0; i < 200 && (await instanceOf(bosun, id)).body.vnfInstanceName !== 'etag-theirs'; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }

      await form.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('alert')
        .getByText(/Someone changed this instance after you opened it/)
        .waitFor();
      // Reloaded: the form and the page show the other change, which was not overwritten.
      await page.getByRole('heading', { name: 'etag-theirs' }).waitFor();
      assert.equal(await form.getByLabel('Name').inputValue(), 'etag-theirs');
      assert.equal((await instanceOf(bosun, id)).body.vnfInstanceName, 'etag-theirs');
      await screenshot(page, `instance-etag-conflict-${dialect}`);

      // Made again on the new version, the change goes through.
      await form.getByLabel('Name').fill('etag-mine');
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByText('MODIFY_INFO COMPLETED', { exact: true }).waitFor();
      await page.getByRole('heading', { name: 'etag-mine' }).waitFor();
      assert.equal((await instanceOf(bosun, id)).body.vnfInstanceName, 'etag-mine');
      ui.assertClean();
      await ui.close();
    });
  });

  describe(`web console project isolation (${dialect})`, () => {
    let bosun: Bosun;
    before(async () => {
      bosun = await startBosun(dialect, { BOSUN_AUTH_MODE: 'oauth2' });
    });
    after(() => bosun.stop());

    test('a second project’s user sees none of the first project’s packages and instances', async () => {
      const scopes = ['vnfpkgm:v2:all', 'vnfpkgm:v1:all', 'vnflcm:v2:all'];
      const first = await addClient(bosun, 'console-p1', 'p1', scopes);
      const second = await addClient(bosun, 'console-p2', 'p2', scopes);
      const token = await http<{ access_token: string }>(bosun.url, 'POST', '/oauth2/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${first.clientId}&client_secret=${first.clientSecret}`,
      });
      const p1 = { authorization: `Bearer ${token.body.access_token}` };
      const pkg = await createPkg(bosun.url, p1);
      assert.equal((await putZip(bosun.url, pkg.id, sample(MAIN_SAMPLE), p1)).status, 202);
      const onboarded = await waitSettled(bosun.url, pkg.id, p1);
      assert.equal(onboarded.onboardingState, 'ONBOARDED');
      const inst = await http<Instance>(bosun.url, 'POST', '/vnflcm/v2/vnf_instances', {
        headers: { ...LCM, ...p1 },
        body: { vnfdId: onboarded.vnfdId, vnfInstanceName: 'p1-only' },
      });
      assert.equal(inst.status, 201, inst.text);

      const ui = await openConsole(browser, `${bosun.url}/ui/packages`);
      const { page } = ui;
      await signIn(page, second);
      await page.getByText('No VNF package yet').waitFor();
      await page.getByRole('link', { name: 'VNF instances' }).click();
      await page.getByText('No VNF instance yet.').waitFor();
      await page.goto(`${bosun.url}/ui/instances/${inst.body.id}`);
      await signIn(page, second);
      await page
        .getByRole('alert')
        .getByText(/does not exist/)
        .waitFor();
      await page.goto(`${bosun.url}/ui/packages/${pkg.id}`);
      await signIn(page, second);
      await page
        .getByRole('alert')
        .getByText(/does not exist/)
        .waitFor();

      // The first project's user sees them.
      await page.goto(`${bosun.url}/ui/instances`);
      await signIn(page, first);
      await page
        .getByRole('table', { name: 'VNF instances' })
        .getByRole('link', { name: 'p1-only' })
        .waitFor();
      ui.assertClean();
      await ui.close();
    });
  });
}
