/**
 * The packages pages of the web console in headless Chromium against a real `bosun serve`: a
 * real Tacker package uploaded from the form with its progress, followed to ONBOARDED, its
 * VNFD shown and an artifact downloaded; a broken package's failure with file:line and the
 * offending VNFD line; enable/disable/delete offered only as the API allows, with the reason.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { openZipPackage } from '../../src/vnfd/csar/zip-reader.ts';
import { ABOVE_THE_STORE } from '../support/databases.ts';
import { SAMPLES_DIR } from '../support/samples.ts';
import { tempDir } from '../support/temp.ts';
import {
  type Bosun,
  ensureConsoleBuilt,
  launchBrowser,
  openConsole,
  screenshot,
  startBosun,
} from './harness.ts';
import { BROKEN_LINE, brokenPackage } from './packages.ts';

/** A Tacker sample with an additional artifact to download. */
const WITH_ARTIFACT = 'sample_vnf_package_csar_meta.zip';
const ARTIFACT = 'Scripts/install.sh';

async function entryOf(zip: string, name: string): Promise<string> {
  const { files } = await openZipPackage(zip);
  assert.ok(files);
  try {
    return await files.readText(name);
  } finally {
    await files.close();
  }
}

let browser: Browser;
before(async () => {
  ensureConsoleBuilt();
  browser = await launchBrowser();
});
after(() => browser?.close());

for (const dialect of ABOVE_THE_STORE) {
  describe(`web console packages (${dialect})`, () => {
    let bosun: Bosun;
    /** The page of the package the first test onboards. */
    let onboardedUrl: string;
    before(async () => {
      bosun = await startBosun(dialect);
    });
    after(() => bosun.stop());

    test('a package uploaded from the form shows its progress, onboards, and shows its VNFD and artifacts', async () => {
      const ui = await openConsole(browser, `${bosun.url}/ui/packages`);
      const { page } = ui;
      await page.getByRole('button', { name: 'Upload package' }).click();
      await page.getByLabel('Package file').setInputFiles(join(SAMPLES_DIR, WITH_ARTIFACT));
      // The upload throttled to 16 KiB/s (Chromium's network emulation): the bar moves through
      // the XHR's progress events, each value it shows recorded as it changes.
      const cdp = await ui.context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 16 * 1024,
      });
      await page.evaluate(`(() => {
        window.seenProgress = [];
        new MutationObserver(() => {
          const bar = document.querySelector('progress');
          if (bar && bar.value !== window.seenProgress.at(-1)) window.seenProgress.push(bar.value);
        }).observe(document.body, { subtree: true, childList: true, attributes: true });
      })()`);
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      // The package's page follows the onboarding to its end.
      await page.waitForURL(/\/ui\/packages\/[0-9a-f-]{36}$/);
      await page.getByRole('list', { name: 'Onboarding steps' }).getByText('Onboarded — done').waitFor();
      await page.getByText('onboarded', { exact: true }).waitFor();
      onboardedUrl = page.url();
      const seen = (await page.evaluate('window.seenProgress')) as number[];
      assert.ok(
        seen.some((v) => v > 0 && v < 100),
        `the bar showed only ${seen.join(', ')}`,
      );
      assert.equal(seen.at(-1), 100);
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await page.getByText('enabled', { exact: true }).waitFor();

      // The VNFD viewer: the flavour, its VDUs with their instance ranges, the images.
      const vnfd = page.getByRole('region', { name: 'VNFD' });
      await vnfd.getByRole('tab', { name: 'Flavour simple' }).waitFor();
      const vdus = vnfd.getByRole('table', { name: 'VDUs of flavour simple' });
      await vdus.getByRole('row', { name: /VDU1/ }).waitFor();
      assert.match((await vdus.getByRole('row', { name: /VDU1/ }).textContent()) ?? '', /1–\d+/);
      await vnfd.getByRole('table', { name: 'Images of flavour simple' }).waitFor();
      await screenshot(page, `package-${dialect}`);

      // The artifact, downloaded with the token, is the package's file.
      const downloaded = page.waitForEvent('download');
      await page.getByRole('button', { name: `Download ${ARTIFACT}` }).click();
      const file = join(tempDir('bosun-console-dl-'), 'install.sh');
      await (await downloaded).saveAs(file);
      assert.equal(await readFile(file, 'utf8'), await entryOf(join(SAMPLES_DIR, WITH_ARTIFACT), ARTIFACT));

      await page.getByRole('link', { name: 'Packages' }).click();
      await page
        .getByRole('table', { name: 'VNF packages' })
        .getByRole('link', { name: 'Sample VNF' })
        .waitFor();
      await screenshot(page, `packages-${dialect}`);
      ui.assertClean();
      await ui.close();
    });

    test('a broken package shows the failure with file:line and the offending VNFD line', async () => {
      const zip = join(tempDir('bosun-console-broken-'), 'broken.zip');
      await brokenPackage(zip);
      const ui = await openConsole(browser, `${bosun.url}/ui/packages`);
      const { page } = ui;
      await page.getByRole('button', { name: 'Upload package' }).click();
      await page.getByLabel('Package file').setInputFiles(zip);
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await page.waitForURL(/\/ui\/packages\/[0-9a-f-]{36}$/);

      const failure = page.getByRole('region', { name: 'Onboarding failed' });
      await failure.waitFor();
      await failure.getByText(`single.yaml:${BROKEN_LINE}`, { exact: false }).first().waitFor();
      await failure.getByText('TOSCA_UNKNOWN_TYPE', { exact: true }).waitFor();
      const hit = failure.locator('pre.source .line.hit');
      assert.match(
        (await hit.textContent()) ?? '',
        new RegExp(`^${BROKEN_LINE}\\s+type: tosca\\.nodes\\.nfv\\.Vdu\\.Computer`),
      );
      await page
        .getByRole('list', { name: 'Onboarding steps' })
        .getByText(/Checked and read.*failed/)
        .waitFor();
      // It waits for a corrected upload; it can be deleted at once (never enabled).
      await page.getByRole('form', { name: 'Upload the package content' }).waitFor();
      await screenshot(page, `package-failed-${dialect}`);
      ui.assertClean();
      await ui.close();
    });

    test('enable, disable and delete follow the API’s rules, a refused one saying why', async () => {
      const ui = await openConsole(browser, onboardedUrl);
      const { page } = ui;
      await page.getByText('enabled', { exact: true }).waitFor();

      const del = page.getByRole('button', { name: 'Delete' });
      assert.equal(await del.isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Enable' }).isDisabled(), true);
      await page.getByText('Disable it first: only a disabled package can be deleted.').waitFor();

      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByText('disabled', { exact: true }).waitFor();
      assert.equal(await del.isDisabled(), false);
      page.once('dialog', (dialog) => void dialog.accept());
      await del.click();
      await page.waitForURL(/\/ui\/packages$/);
      // Gone: its page now shows the API's 404.
      await page.goto(onboardedUrl);
      await page
        .getByRole('alert')
        .getByText(/does not exist/)
        .waitFor();
      ui.assertClean();
      await ui.close();
    });
  });
}
