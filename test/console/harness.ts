/**
 * What the browser tests of the web console share: the console built (once, when its sources
 * changed), a real `bosun serve` on loopback with the simulated VIM, a headless Chromium driven
 * by playwright-core, OAuth 2.0 clients made with `bosun auth client add`, and screenshots
 * written under test-artifacts/console/. A page that logs an error, fails a request for a
 * console file, or breaks the Content-Security-Policy fails its test.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { TestDialect } from '../support/databases.ts';
import { newServerEnv, type Served, type ServerEnv, serveProcess, stop } from '../support/processes.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const BOSUN = join(ROOT, 'bin/bosun');
export const ARTIFACTS = join(ROOT, 'test-artifacts/console');
const CHROMIUM = process.env.BOSUN_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** Builds the console when a source is newer than its last build (a no-op otherwise). */
export function ensureConsoleBuilt(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-console.ts'), '--if-stale'], {
    stdio: 'inherit',
  });
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

export interface Bosun {
  served: Served;
  env: ServerEnv;
  url: string;
  stop(): Promise<void>;
}

/** `bosun serve` on a fresh database; `vars` adds BOSUN_* settings (BOSUN_AUTH_MODE…). */
export async function startBosun(dialect: TestDialect, vars: Record<string, string> = {}): Promise<Bosun> {
  const env = await newServerEnv(dialect, 'bosun-console-');
  const served = await serveProcess(env, 'all', vars);
  return { served, env, url: served.url, stop: () => stop(served.child) };
}

export interface Client {
  clientId: string;
  clientSecret: string;
}

/** An OAuth 2.0 client of `project` with `scopes`, added as an operator does. */
export function addClient(bosun: Bosun, id: string, project: string, scopes: string[]): Promise<Client> {
  const args = ['auth', 'client', 'add', '--id', id, '--project', project, '--json'];
  for (const scope of scopes) args.push('--scope', scope);
  return new Promise((resolve, reject) => {
    execFile(
      BOSUN,
      args,
      {
        env: {
          PATH: process.env.PATH ?? '',
          BOSUN_DATABASE_URL: bosun.env.databaseUrl,
          BOSUN_SECURITY_ENCRYPTION_KEY: bosun.env.key,
        },
      },
      (err, stdout, stderr) =>
        err ? reject(new Error(`bosun ${args.join(' ')}: ${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** Fails when the page logged an error or broke the CSP; call at the end of a test. */
  assertClean(): void;
  close(): Promise<void>;
}

/** A new browser context (no shared storage) on `url`, at 1280×800 unless told otherwise. */
export async function openConsole(
  browser: Browser,
  url: string,
  options: { viewport?: { width: number; height: number }; expectedErrors?: RegExp } = {},
): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const expected = options.expectedErrors;
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    // The browser logs every non-2xx answer as an error; the tests assert those on the page.
    if (msg.type() !== 'error' || /Failed to load resource/.test(msg.text())) return;
    if (expected?.test(msg.text())) return;
    errors.push(`console error: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.url().includes('/ui/') && res.status() >= 400)
      errors.push(`console file ${res.url()}: ${res.status()}`);
  });
  await page.goto(url);
  return {
    page,
    context,
    assertClean: () => assert.deepEqual(errors, [], 'the page logged errors'),
    close: () => context.close(),
  };
}

/** A full-page screenshot under test-artifacts/console/, named after what it shows. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Signs in through the console's form. */
export async function signIn(page: Page, client: Client): Promise<void> {
  await page.getByLabel('Client id').fill(client.clientId);
  await page.getByLabel('Client secret').fill(client.clientSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
