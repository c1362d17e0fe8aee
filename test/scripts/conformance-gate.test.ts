/**
 * The conformance gate's verdict (scripts/conformance-gate.ts) on results laid out as the ETSI kit
 * writes them (RESULTS/SUITE/tests.tsv), and the repository's own list of known failures.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { judge, parseKnownFailures, readResults, suiteOf } from '../../scripts/conformance-gate.ts';

const repo = new URL('../../', import.meta.url).pathname;
const gate = join(repo, 'scripts/conformance-gate.ts');

const LIST = [
  '# comment',
  '',
  'sol003-vnflcm\tA.robot\tbroken test\tsuite-broken\tchecks the wrong attribute',
  'sol003-vnffm\tAlarms.robot\tGET alarms\tharness-limit\tno alarm to read',
].join('\n');

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A results folder: suite → tests.tsv rows [file, test, status, message]. */
function results(suites: Record<string, string[][]>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-gate-test-'));
  dirs.push(dir);
  for (const [suite, rows] of Object.entries(suites)) {
    mkdirSync(join(dir, suite));
    writeFileSync(join(dir, suite, 'tests.tsv'), rows.map((r) => `${r.join('\t')}\n`).join(''));
  }
  return dir;
}

const verdictOn = (dir: string, complete: boolean, list = LIST) =>
  judge(parseKnownFailures(list), readResults(dir).results, complete);

describe('conformance gate', () => {
  test('known failures pass the gate; an unlisted failure fails it with the kit message', () => {
    const known = results({
      'sol003-vnflcm': [
        ['A.robot', 'broken test', 'FAIL', '405 != 202'],
        ['A.robot', 'good test', 'PASS', ''],
      ],
      'sol003-vnffm': [['Alarms.robot', 'GET alarms', 'FAIL', '404 != 200']],
    });
    const ok = verdictOn(known, true);
    assert.equal(ok.ok, true, ok.report.join('\n'));
    assert.match(ok.report.at(-1) ?? '', /1 passed, 2 failed; 2 failures known .*gate passed/);

    const fresh = results({
      'sol003-vnflcm': [
        ['A.robot', 'broken test', 'FAIL', '405 != 202'],
        ['A.robot', 'good test', 'FAIL', "ValidationError: 'virtualLinkDescId' is a required property"],
      ],
    });
    const failed = verdictOn(fresh, false);
    assert.equal(failed.ok, false);
    assert.match(
      failed.report[0],
      /^FAIL \(not in the list\) sol003-vnflcm A\.robot: good test\n.*virtualLinkDescId/,
    );
  });

  test('a listed test that passes fails the gate until its line goes (the list only shrinks)', () => {
    const dir = results({ 'sol003-vnflcm': [['A.robot', 'broken test', 'PASS', '']] });
    const verdict = verdictOn(dir, false);
    assert.equal(verdict.ok, false);
    assert.match(verdict.report[0], /^now passes: remove it from the list \(line 3, suite-broken\)/);
  });

  test('a suite-timing test may pass or fail: neither fails the gate', () => {
    const list = `${LIST}\nsol003-vnflcm\tA.robot\trace test\tsuite-timing\tneeds an earlier test's operation running`;
    for (const status of ['PASS', 'FAIL']) {
      const dir = results({
        'sol003-vnflcm': [['A.robot', 'race test', status, status === 'FAIL' ? '202 != 409' : '']],
      });
      const verdict = verdictOn(dir, false, list);
      assert.equal(verdict.ok, true, `${status}: ${verdict.report.join('\n')}`);
    }
  });

  test('a complete run must have every listed test; a partial run compares only what it ran', () => {
    const dir = results({ 'sol003-vnflcm': [['A.robot', 'broken test', 'FAIL', 'x']] });
    assert.equal(verdictOn(dir, false).ok, true);
    const complete = verdictOn(dir, true);
    assert.equal(complete.ok, false);
    assert.match(
      complete.report[0],
      /^not in this run: .*\(line 4\): sol003-vnffm Alarms\.robot: GET alarms/,
    );
  });

  test('a run of one folder or file of a suite is compared under its suite key', () => {
    assert.equal(suiteOf('SOL003_VNFLifecycleManagement-API_VNFInstances'), 'sol003-vnflcm');
    assert.equal(suiteOf('SOL003_VNFFaultManagementNotification-API'), 'sol003-vnffm-notif');
    assert.equal(suiteOf('sol005-vnfpkgm'), 'sol005-vnfpkgm');
    const dir = results({ 'SOL003_VNFLifecycleManagement-API_A': [['A.robot', 'broken test', 'FAIL', 'x']] });
    const verdict = verdictOn(dir, false);
    assert.equal(verdict.ok, true, verdict.report.join('\n'));
    assert.match(verdict.report.at(-1) ?? '', /1 failures known \(suite-broken 1, .*harness-limit 0/);
  });

  test('malformed lines, unknown categories and duplicates fail the gate', () => {
    const list = [
      LIST,
      'sol003-vnflcm\tA.robot\tbroken test\tsuite-broken\tagain',
      'sol003-vnflcm\tB.robot\tother\tflaky\twhy not',
      'sol003-vnflcm\tC.robot\tno reason\tsuite-broken\t',
    ].join('\n');
    const parsed = parseKnownFailures(list);
    assert.deepEqual(parsed.problems, [
      'line 5: sol003-vnflcm A.robot: broken test is already listed on line 3',
      "line 6: unknown category 'flaky' (one of suite-broken, suite-timing, harness-limit, protocol-fix-pending)",
      'line 7: want 5 non-empty tab-separated fields (suite, file, test, category, reason)',
    ]);
    const dir = results({ 'sol003-vnflcm': [['A.robot', 'broken test', 'FAIL', 'x']] });
    assert.equal(judge(parsed, readResults(dir).results, false).ok, false);
  });

  test("the repository's list is well-formed and every entry has a reason", () => {
    const parsed = parseKnownFailures(readFileSync(join(repo, 'conformance/known-failures.tsv'), 'utf8'));
    assert.deepEqual(parsed.problems, []);
    assert.ok(parsed.entries.length > 0);
  });

  test('the command exits 1 with the report on a failing verdict, 0 on a passing one, 1 on no results', () => {
    const list = join(results({}), 'known.tsv');
    writeFileSync(list, LIST);
    const run = (dir: string) => spawnSync(process.execPath, [gate, list, dir], { encoding: 'utf8' });
    const passing = run(results({ 'sol003-vnflcm': [['A.robot', 'broken test', 'FAIL', 'x']] }));
    assert.equal(passing.status, 0, passing.stdout + passing.stderr);
    assert.match(passing.stdout, /^conformance gate: suites sol003-vnflcm\n.*gate passed\n$/s);
    const failing = run(results({ 'sol003-vnflcm': [['A.robot', 'new', 'FAIL', '500 != 200']] }));
    assert.equal(failing.status, 1);
    assert.match(failing.stdout, /FAIL \(not in the list\) sol003-vnflcm A\.robot: new\n {4}500 != 200/);
    const none = run(results({}));
    assert.equal(none.status, 1);
    assert.match(none.stderr, /no test results under .* the kit did not run/);
  });
});
