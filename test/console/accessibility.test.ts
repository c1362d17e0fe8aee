/**
 * Every page of the web console, with data on it, checked in a real browser: axe-core (injected
 * from node_modules) reports no WCAG 2.x A/AA violation in the light and the dark theme; at
 * 1280×800 and in a 400 px wide window nothing is cut off (the page never scrolls sideways, wide
 * tables scroll in their own box); the keyboard reaches the skip link first and its focus is
 * visible. A screenshot of each page in each theme and width is kept. Rendering does not depend
 * on the database: SQLite only.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { idOf } from '../http/vnflcm/lcm-client.ts';
import { createInstance, H, INSTANTIATE, onboardOnce, runTask, V2 } from '../http/vnflcm/lcm-support.ts';
import { type Receiver, startReceiver } from '../notify/delivery/support.ts';
import { http } from '../support/http.ts';
import {
  type Bosun,
  ensureConsoleBuilt,
  launchBrowser,
  openConsole,
  screenshot,
  startBosun,
} from './harness.ts';

const AXE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const WIDE = { name: 'wide', width: 1280, height: 800 };
const NARROW = { name: 'narrow', width: 400, height: 800 };
/** Both themes at 1280×800; the narrow window once (its colours are the wide one's). */
const RUNS = [
  { viewport: WIDE, theme: 'light' },
  { viewport: WIDE, theme: 'dark' },
  { viewport: NARROW, theme: 'light' },
] as const;

/** The browser globals the page functions below use (the tests compile without the DOM library). */
interface FocusedElement {
  id: string;
  tagName: string;
  textContent: string | null;
  getBoundingClientRect(): { width: number; height: number; top: number };
}
interface Win {
  document: {
    documentElement: { scrollWidth: number; clientWidth: number };
    activeElement: FocusedElement | null;
  };
  getComputedStyle(el: FocusedElement): { outlineStyle: string; outlineWidth: string; boxShadow: string };
}

interface Violation {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe-core's WCAG A/AA violations on the page as it is (evaluated through the debugger: the CSP does not apply). */
async function axeViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE);
  return page.evaluate(async (tags) => {
    const axe = (
      globalThis as unknown as {
        axe: { run: (ctx: unknown, o: unknown) => Promise<{ violations: Violation[] }> };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as Win).document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  }, WCAG);
}

let browser: Browser;
before(async () => {
  ensureConsoleBuilt();
  browser = await launchBrowser();
});
after(() => browser?.close());

describe('web console accessibility and layout (sqlite)', () => {
  let bosun: Bosun;
  let oauth: Bosun;
  let receiver: Receiver;
  /** What the seeded pages show (set in before). */
  const seed = { pkg: '', inst: '', failedOp: '' };
  /** Each page, and what says it has rendered its data. */
  const PAGES: {
    name: string;
    path: () => string;
    ready: string | RegExp;
    andThen?: (page: Page) => Promise<void>;
  }[] = [
    { name: 'packages', path: () => '/ui/packages', ready: 'VNF packages' },
    { name: 'package', path: () => `/ui/packages/${seed.pkg}`, ready: /./ },
    { name: 'instances', path: () => '/ui/instances', ready: 'VNF instances' },
    { name: 'instance', path: () => `/ui/instances/${seed.inst}`, ready: /./ },
    { name: 'operations', path: () => '/ui/operations', ready: 'Operations' },
    { name: 'operation', path: () => `/ui/operations/${seed.failedOp}`, ready: /^INSTANTIATE / },
    { name: 'alarms', path: () => '/ui/alarms', ready: 'Alarms' },
    {
      name: 'subscriptions',
      path: () => '/ui/subscriptions',
      ready: 'Subscriptions',
      andThen: async (page) => {
        await page.getByRole('button', { name: new RegExp(`^Delivery to ${receiver.url}/a11y`) }).click();
        await page.getByRole('table', { name: 'Dead notifications' }).waitFor();
      },
    },
    {
      name: 'vims',
      path: () => '/ui/vims',
      ready: 'VIMs',
      andThen: (page) => page.getByRole('heading', { name: 'Fault injection (simulated VIM)' }).waitFor(),
    },
    { name: 'not-found', path: () => '/ui/no/such/page', ready: 'Page not found' },
  ];

  before(async () => {
    receiver = await startReceiver(() => ({ status: 500 }));
    [bosun, oauth] = await Promise.all([
      startBosun('sqlite', {
        BOSUN_FM_HEALTH_INTERVAL_MS: '300',
        BOSUN_OUTBOUND_ALLOW: '127.0.0.1',
        BOSUN_NOTIFY_CALLBACK_TEST: 'false',
        BOSUN_NOTIFY_MAX_ATTEMPTS: '1',
      }),
      startBosun('sqlite', { BOSUN_AUTH_MODE: 'oauth2' }),
    ]);
    const pkg = await onboardOnce(bosun.url);
    const sub = await http<{ id: string }>(bosun.url, 'POST', `${V2}/subscriptions`, {
      headers: H,
      body: { callbackUri: `${receiver.url}/a11y` },
    });
    assert.equal(sub.status, 201, sub.text);
    const inst = await createInstance(bosun.url, pkg.vnfdId as string, { vnfInstanceName: 'a11y' });
    assert.equal((await runTask(bosun.url, inst.id, 'instantiate', INSTANTIATE)).operationState, 'COMPLETED');
    // An operation left FAILED_TEMP (its tasks enabled, its error shown), and an alarm.
    const other = await createInstance(bosun.url, pkg.vnfdId as string, { vnfInstanceName: 'a11y-failed' });
    await http(bosun.url, 'POST', '/bosun/v1/sim/faults', {
      body: { kind: 'server.create', action: 'fail', count: 1 },
    });
    const started = await http(bosun.url, 'POST', `${V2}/vnf_instances/${other.id}/instantiate`, {
      headers: H,
      body: INSTANTIATE,
    });
    const failedOp = idOf(started.headers.get('location'));
    const servers = await http<{ id: string }[]>(
      bosun.url,
      'GET',
      `/bosun/v1/sim/servers?instanceId=${inst.id}`,
    );
    await http(bosun.url, 'POST', `/bosun/v1/sim/servers/${servers.body[0].id}/crash`, { body: {} });
    for (let i = 0; i < 100; i++) {
      const alarms = await http<unknown[]>(bosun.url, 'GET', '/vnffm/v1/alarms', {
        headers: { Version: '1.3.0' },
      });
      if (alarms.body.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    Object.assign(seed, { pkg: pkg.id, inst: inst.id, failedOp });
  });
  after(async () => {
    await Promise.all([bosun?.stop(), oauth?.stop()]);
    await receiver?.close();
  });

  /** Opens a page as the run says, checks it, keeps its screenshot; what is wrong with it. */
  async function check(
    name: string,
    url: string,
    run: (typeof RUNS)[number],
    ready: (page: Page) => Promise<void>,
  ): Promise<string[]> {
    const found: string[] = [];
    const ui = await openConsole(browser, url, { viewport: run.viewport });
    const { page } = ui;
    await page.emulateMedia({ colorScheme: run.theme });
    await ready(page);
    // Let the page settle (lists answered, badges drawn) before it is judged.
    await page.waitForLoadState('networkidle');
    for (const v of await axeViolations(page)) {
      found.push(`${v.id} (${v.help}) at ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
    }
    const overflow = await page.evaluate(() => {
      const root = (globalThis as unknown as Win).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    if (overflow > 0) found.push(`the page scrolls sideways by ${overflow} px`);
    await screenshot(page, `${name}-${run.theme}-${run.viewport.name}`);
    ui.assertClean();
    await ui.close();
    return found;
  }

  for (const run of RUNS) {
    const title = (name: string) =>
      `${name}, ${run.theme} theme, ${run.viewport.name} (${run.viewport.width} px): no axe violation, nothing cut off`;
    for (const p of PAGES) {
      test(title(p.name), async () => {
        const found = await check(p.name, `${bosun.url}${p.path()}`, run, async (page) => {
          await page.getByRole('heading', { level: 1, name: p.ready }).first().waitFor();
          await p.andThen?.(page);
        });
        assert.deepEqual(found, []);
      });
    }
    test(title('sign-in'), async () => {
      const found = await check('sign-in', `${oauth.url}/ui/`, run, (page) =>
        page.getByLabel('Client secret').waitFor(),
      );
      assert.deepEqual(found, []);
    });
  }

  test('the keyboard: the skip link comes first with a visible focus and leads to the content', async () => {
    const ui = await openConsole(browser, `${bosun.url}/ui/operations`);
    const { page } = ui;
    await page.getByRole('heading', { name: 'Operations' }).waitFor();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const win = globalThis as unknown as Win;
      const el = win.document.activeElement as FocusedElement;
      const style = win.getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return {
        text: el.textContent,
        outline: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0,
        shadow: style.boxShadow !== 'none',
        visible: box.width > 0 && box.height > 0 && box.top >= 0,
      };
    });
    assert.equal(focused.text, 'Skip to content');
    assert.ok(focused.outline || focused.shadow, 'the focused skip link shows its focus');
    assert.ok(focused.visible, 'the focused skip link is on screen');
    await page.keyboard.press('Enter');
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as Win).document.activeElement?.id),
      'main',
    );
    // From the content, Tab reaches the page's own controls (the filters) in order.
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => (globalThis as unknown as Win).document.activeElement?.tagName),
      'SELECT',
    );
    ui.assertClean();
    await ui.close();
  });
});
