/**
 * The web console in a real browser (headless Chromium) against a real `bosun serve`: straight
 * in with auth.mode none; with oauth2 the sign-in form, a refused secret shown as Bosun's
 * ProblemDetails, the token in memory only (a reload asks again), and the navigation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { ABOVE_THE_STORE } from '../support/databases.ts';
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

let browser: Browser;
before(async () => {
  ensureConsoleBuilt();
  browser = await launchBrowser();
});
after(() => browser?.close());

for (const dialect of ABOVE_THE_STORE) {
  describe(`web console sign-in (${dialect})`, () => {
    describe('auth.mode none', () => {
      let bosun: Bosun;
      before(async () => {
        bosun = await startBosun(dialect);
      });
      after(() => bosun.stop());

      test('/ leads straight to the packages page, and the navigation reaches the instances', async () => {
        const ui = await openConsole(browser, bosun.url);
        const { page } = ui;
        await page.getByRole('heading', { name: 'VNF packages' }).waitFor();
        assert.equal(new URL(page.url()).pathname, '/ui/packages');
        await page.getByText('No VNF package yet').waitFor();
        await page.getByRole('link', { name: 'VNF instances' }).click();
        await page.getByRole('heading', { name: 'VNF instances' }).waitFor();
        assert.equal(new URL(page.url()).pathname, '/ui/instances');
        await page.goBack();
        await page.getByRole('heading', { name: 'VNF packages' }).waitFor();
        ui.assertClean();
        await ui.close();
      });

      test('an unknown console path says so with a way back', async () => {
        const ui = await openConsole(browser, `${bosun.url}/ui/no/such/page`);
        await ui.page.getByRole('heading', { name: 'Page not found' }).waitFor();
        ui.assertClean();
        await ui.close();
      });
    });

    describe('auth.mode oauth2', () => {
      let bosun: Bosun;
      before(async () => {
        bosun = await startBosun(dialect, { BOSUN_AUTH_MODE: 'oauth2' });
      });
      after(() => bosun.stop());

      test('a wrong secret shows the token endpoint’s detail; the right one signs in; a reload asks again', async () => {
        const client = await addClient(bosun, 'console-ops', 'p1', ['vnfpkgm:v2:all', 'vnflcm:v2:all']);
        const ui = await openConsole(browser, `${bosun.url}/ui/instances`);
        const { page } = ui;
        await page.getByRole('heading', { name: 'Sign in to Bosun' }).waitFor();
        await screenshot(page, `sign-in-${dialect}`);
        await signIn(page, { ...client, clientSecret: 'not-the-secret' });
        await page.getByRole('alert').getByText('Client authentication failed').waitFor();

        await signIn(page, client);
        await page.getByRole('heading', { name: 'VNF instances' }).waitFor();
        await page.getByText('console-ops').waitFor();
        // Kept in memory only: nothing in the browser's storage, and a reload signs out.
        const stored = await page.evaluate(
          'localStorage.length + sessionStorage.length + document.cookie.length',
        );
        assert.equal(stored, 0);
        await page.reload();
        await page.getByRole('heading', { name: 'Sign in to Bosun' }).waitFor();
        ui.assertClean();
        await ui.close();
      });

      test('sign out returns to the form', async () => {
        const client = await addClient(bosun, 'console-out', 'p1', ['vnfpkgm:v2:readonly']);
        const ui = await openConsole(browser, `${bosun.url}/ui/`);
        await signIn(ui.page, client);
        await ui.page.getByRole('heading', { name: 'VNF packages' }).waitFor();
        await ui.page.getByRole('button', { name: 'Sign out' }).click();
        await ui.page.getByRole('heading', { name: 'Sign in to Bosun' }).waitFor();
        ui.assertClean();
        await ui.close();
      });
    });
  });
}
