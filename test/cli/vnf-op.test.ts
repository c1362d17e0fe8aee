/**
 * `bosun vnf …` and `bosun op …` as real subprocesses against a real server (SQLite, the
 * simulated VIM) with Tacker samples onboarded: the whole life of an instance with --wait,
 * tables and --json, request files and --param, failures injected on the simulated VIM (the
 * VIM's message printed, exit 1) then retry, rollback, fail and cancel of the op occ, the
 * /vnflcm/v1 switch, and usage errors. The op occ progress display is checked in-process on
 * a terminal-like stream.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { OpOcc } from '../../src/cli/api-client/vnf-instances.ts';
import { OpOccProgress } from '../../src/cli/commands/lcm-common.ts';
import {
  createInstance,
  getInstance,
  getOpOcc,
  type Instance,
  onboardOnce,
  runTask,
  waitOpOcc,
} from '../http/vnflcm/lcm-support.ts';
import { H1, type InstanceV1, V1 } from '../http/vnflcm/v1-support.ts';
import { http } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;
/** A Nova failure that is not about room (those make Bosun try another zone). */
const NOVA = 'Build of instance aborted: the hypervisor refused the server.';
const TWO_FLAVOURS = 'sol_v2_common__test_instantiate_vnf_with_old_image_or_volume.zip';
const PKG_FROM = 'sol_v2_common__basic_lcms_min_individual_vnfc.zip';
const PKG_TO = 'sol_v2_common__change_vnfpkg_or_update_min_individual_vnfc.zip';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const vdus = (inst: Instance) =>
  (inst.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => v.vduId).sort();
const level = (inst: Instance) => inst.instantiatedVnfInfo?.scaleStatus?.[0]?.scaleLevel;
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('bosun vnf and bosun op against a server', () => {
  let server: TestServer;
  let env: Record<string, string>;
  let vnfdId: string;
  let work: string;

  function bosun(args: string[]): Promise<Run> {
    return new Promise((resolve) => {
      execFile(BOSUN, args, { env: { PATH: process.env.PATH ?? '', ...env } }, (err, stdout, stderr) => {
        const code = err ? (err as { code?: number }).code : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      });
    });
  }
  async function ok(args: string[]): Promise<Run> {
    const r = await bosun(args);
    assert.equal(r.code, 0, `bosun ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    return r;
  }
  const json = async <T>(args: string[]) => JSON.parse((await ok([...args, '--json'])).stdout) as T;
  /** The op occ id of an "accepted" line or a final-state line. */
  const opOccIn = (stdout: string) => {
    const m = /op occ ([0-9a-f-]{36})|^[A-Z_]+ ([0-9a-f-]{36}):/m.exec(stdout);
    assert.ok(m, stdout);
    return (m[1] ?? m[2]) as string;
  };
  const fault = async (kind: string, action: 'fail' | 'hang', message?: string) => {
    const res = await http(server.url, 'POST', '/bosun/v1/sim/faults', {
      body: { kind, action, ...(message ? { message } : {}) },
    });
    assert.equal(res.status, 201, res.text);
  };
  const instantiated = async () => {
    const inst = await createInstance(server.url, vnfdId);
    const op = await runTask(server.url, inst.id, 'instantiate', { flavourId: 'simple' });
    assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
    return inst;
  };

  before(async () => {
    server = await startTestServer('sqlite', {
      config: { worker: { pollIntervalMs: 50 }, sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 } },
    });
    env = { BOSUN_URL: server.url };
    vnfdId = (await onboardOnce(server.url)).vnfdId as string;
    work = tempDir('bosun-cli-vnf-');
  });
  after(() => server.close());

  test('create → instantiate --wait → scale out/in --wait → heal --wait → terminate --wait → delete', async () => {
    const created = await json<Instance & { vnfProductName: string }>([
      'vnf',
      'create',
      '--vnfd-id',
      vnfdId,
      '--name',
      'cli-a',
      '--description',
      'made by the CLI test',
      '--metadata',
      'tier=gold',
      '--metadata',
      'replicas=3',
    ]);
    const id = created.id;
    assert.equal(created.instantiationState, 'NOT_INSTANTIATED');
    assert.deepEqual(created.metadata, { tier: 'gold', replicas: 3 });
    assert.equal(created.vnfInstanceName, 'cli-a');

    const table = await ok(['vnf', 'list']);
    assert.match(table.stdout, /^id\s+name\s+vnfdId\s+product\s+state\s+flavour\s+vnfState\s+vnfcs$/m);
    assert.match(
      table.stdout,
      new RegExp(`^${id}\\s+cli-a\\s+${vnfdId}\\s+Sample VNF\\s+NOT_INSTANTIATED$`, 'm'),
    );

    // Instantiate and follow it: the final state on stdout, exit 0.
    const inst = await ok(['vnf', 'instantiate', id, '--flavour', 'simple', '--wait']);
    const instOp = opOccIn(inst.stdout);
    assert.match(inst.stdout, new RegExp(`^INSTANTIATE ${instOp}: COMPLETED after \\d+\\.\\d s$`, 'm'));
    // Progress (if the CLI saw the op occ before its end) is plain lines on stderr, never the end.
    for (const line of lines(inst.stderr)) {
      assert.match(line, new RegExp(`^INSTANTIATE ${instOp}: (STARTING|PROCESSING) \\(\\d+\\.\\d s\\)$`));
    }
    let now = await getInstance(server.url, id);
    assert.equal(now.instantiationState, 'INSTANTIATED');
    assert.deepEqual(vdus(now), ['VDU1', 'VDU2']);

    const shown = await ok(['vnf', 'show', id]);
    assert.match(shown.stdout, /^instantiationState\s+INSTANTIATED$/m);
    assert.match(shown.stdout, /^flavourId\s+simple$/m);
    assert.match(shown.stdout, /^scaleLevel VDU1_scale\s+0 of 2$/m);
    assert.match(shown.stdout, /^vnfcResource\s+vdu\s+vnfc\s+state\s+zone\s+host\s+server$/m);
    for (const v of now.instantiatedVnfInfo?.vnfcResourceInfo ?? []) {
      const vnfc = now.instantiatedVnfInfo?.vnfcInfo?.find((c) => c.vnfcResourceInfoId === v.id);
      assert.match(
        shown.stdout,
        new RegExp(
          `^${v.id}\\s+${v.vduId}\\s+${vnfc?.id}\\s+STARTED\\s+zone-\\w\\s+zone-\\w-host-\\d+\\s+${v.computeResource.resourceId}$`,
          'm',
        ),
      );
    }
    assert.ok(!shown.stdout.includes('_links'));
    const shownJson = await json<Instance>(['vnf', 'show', id]);
    assert.deepEqual(shownJson, JSON.parse(JSON.stringify(now)));

    // Scale out, then in with --json: the final op occ as JSON.
    const out = await ok(['vnf', 'scale', id, '--aspect', 'VDU1_scale', '--out', '--wait']);
    assert.match(out.stdout, /^SCALE [0-9a-f-]{36}: COMPLETED after/m);
    now = await getInstance(server.url, id);
    assert.deepEqual(vdus(now), ['VDU1', 'VDU1', 'VDU2']);
    assert.equal(level(now), 1);
    const scaledIn = await json<OpOcc>([
      'vnf',
      'scale',
      id,
      '--aspect',
      'VDU1_scale',
      '--in',
      '--steps',
      '1',
      '--wait',
    ]);
    assert.equal(scaledIn.operationState, 'COMPLETED');
    assert.deepEqual(scaledIn.operationParams, {
      type: 'SCALE_IN',
      aspectId: 'VDU1_scale',
      numberOfSteps: 1,
    });
    assert.deepEqual(vdus(await getInstance(server.url, id)), ['VDU1', 'VDU2']);

    // Scale to a level, then back by aspect level.
    await ok(['vnf', 'scale-to-level', id, '--level', 'instantiation_level_2', '--wait', '-q']);
    assert.equal(level(await getInstance(server.url, id)), 2);
    await ok(['vnf', 'scale-to-level', id, '--aspect-level', 'VDU1_scale=0', '--wait']);
    assert.equal(level(await getInstance(server.url, id)), 0);

    // Heal one VNFC (SOL002: a vnfcInfo id): its server is replaced.
    now = await getInstance(server.url, id);
    const target = now.instantiatedVnfInfo?.vnfcInfo?.find((c) => c.vduId === 'VDU1');
    assert.ok(target);
    const serverBefore = now.instantiatedVnfInfo?.vnfcResourceInfo?.find((v) => v.vduId === 'VDU1')
      ?.computeResource.resourceId;
    const healed = await json<OpOcc>([
      'vnf',
      'heal',
      id,
      '--vnfc',
      target.id,
      '--cause',
      'cli test',
      '--wait',
    ]);
    assert.equal(healed.operationState, 'COMPLETED');
    assert.deepEqual(healed.operationParams, { vnfcInstanceId: [target.id], cause: 'cli test' });
    const serverAfter = (await getInstance(server.url, id)).instantiatedVnfInfo?.vnfcResourceInfo?.find(
      (v) => v.vduId === 'VDU1',
    )?.computeResource.resourceId;
    assert.notEqual(serverAfter, serverBefore);

    // Stop and start.
    await ok(['vnf', 'operate', id, '--stop', '--graceful', '--timeout', '0', '--wait']);
    assert.equal((await getInstance(server.url, id)).instantiatedVnfInfo?.vnfState, 'STOPPED');
    await ok(['vnf', 'operate', id, '--start', '--wait']);
    assert.equal((await getInstance(server.url, id)).instantiatedVnfInfo?.vnfState, 'STARTED');

    // Op occs of the instance: table and --json with a filter; one in detail.
    const ops = await ok(['op', 'list', '--instance', id]);
    assert.match(ops.stdout, /^id\s+operation\s+state\s+vnfInstance\s+started\s+stateEntered$/m);
    assert.equal(lines(ops.stdout).filter((l) => / COMPLETED /.test(l) && l.includes(id)).length, 8);
    // As the server lists them, newest first: the started column never increases down the table.
    const started = lines(ops.stdout)
      .filter((l) => l.includes(id))
      .map((l) => l.split(/\s+/)[4]);
    assert.deepEqual(started, [...started].sort().reverse());
    const scales = await json<OpOcc[]>(['op', 'list', '--instance', id, '--filter', '(eq,operation,SCALE)']);
    assert.deepEqual(
      scales.map((o) => o.operationState),
      ['COMPLETED', 'COMPLETED'],
    );
    const scaleOut = scales.find((o) => o.id !== scaledIn.id);
    assert.ok(scaleOut);
    const opShown = await ok(['op', 'show', scaleOut.id]);
    assert.match(opShown.stdout, /^operation\s+SCALE$/m);
    assert.match(opShown.stdout, /^operationState\s+COMPLETED$/m);
    assert.match(
      opShown.stdout,
      /^operationParams\s+\{"type":"SCALE_OUT","aspectId":"VDU1_scale","numberOfSteps":1\}$/m,
    );
    assert.match(opShown.stdout, /^affectedVnfcs\s+ADDED 1$/m);
    assert.doesNotMatch(opShown.stdout, /^next:/m);

    // Terminate gracefully, delete, gone.
    const term = await ok(['vnf', 'terminate', id, '--graceful', '--timeout', '1', '--wait']);
    assert.match(term.stdout, /^TERMINATE [0-9a-f-]{36}: COMPLETED after/m);
    assert.equal((await getInstance(server.url, id)).instantiationState, 'NOT_INSTANTIATED');
    assert.equal((await ok(['vnf', 'delete', id])).stdout, `deleted VNF instance ${id}\n`);
    const gone = await bosun(['vnf', 'show', id]);
    assert.equal(gone.code, 1);
    assert.equal(gone.stderr, `bosun: error: 404 Not Found: VNF instance ${id} does not exist.\n`);
  });

  test('update, change-ext-conn, --request-file and --param, without --wait', async () => {
    const inst = await createInstance(server.url, vnfdId, { metadata: { tier: 'gold', zone: 'a' } });
    // A request file with the level; a flag overrides its flavour; --param adds to additionalParams.
    const request = join(work, 'instantiate.json');
    await writeFile(
      request,
      JSON.stringify({
        flavourId: 'no-such-flavour',
        instantiationLevelId: 'instantiation_level_2',
        additionalParams: { fromFile: 'yes' },
      }),
    );
    const accepted = await ok([
      'vnf',
      'instantiate',
      inst.id,
      '--request-file',
      request,
      '--flavour',
      'simple',
      '--param',
      'debug=true',
      '--param',
      'label=edge',
    ]);
    const opId = opOccIn(accepted.stdout);
    assert.equal(
      accepted.stdout,
      `instantiate of ${inst.id} accepted: op occ ${opId} (follow it with: bosun op show ${opId})\n`,
    );
    const op = await waitOpOcc(server.url, opId);
    assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
    assert.deepEqual(op.operationParams, {
      flavourId: 'simple',
      instantiationLevelId: 'instantiation_level_2',
      additionalParams: { fromFile: 'yes', debug: true, label: 'edge' },
    });
    assert.equal(level(await getInstance(server.url, inst.id)), 2);

    // Update: name, a metadata key deleted, an extension set.
    await ok([
      'vnf',
      'update',
      inst.id,
      '--name',
      'renamed',
      '--metadata-delete',
      'zone',
      '--extension',
      'site=lab',
      '--wait',
    ]);
    const updated = await getInstance(server.url, inst.id);
    assert.equal(updated.vnfInstanceName, 'renamed');
    assert.deepEqual(updated.metadata, { tier: 'gold' });
    assert.deepEqual(updated.extensions, { site: 'lab' });
    const stale = await bosun(['vnf', 'update', inst.id, '--name', 'x', '--if-match', '"stale"']);
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /^bosun: error: 412 Precondition Failed: .+\n$/);

    // Change external connectivity from a file holding the array.
    const extVl = join(work, 'ext-vl.json');
    await writeFile(
      extVl,
      JSON.stringify([
        { id: 'ext-1', resourceId: 'net-ext-1', extCps: [{ cpdId: 'VDU1_CP1', cpConfig: { c1: {} } }] },
      ]),
    );
    const ext = await json<OpOcc & { changedExtConnectivity?: { id: string }[] }>([
      'vnf',
      'change-ext-conn',
      inst.id,
      '--ext-vl-file',
      extVl,
      '--wait',
    ]);
    assert.equal(ext.operationState, 'COMPLETED', JSON.stringify(ext.error));
    assert.deepEqual(
      ext.changedExtConnectivity?.map((l) => l.id),
      ['ext-1'],
    );

    // --json without --wait: the op occ as it is when accepted.
    const term = await json<OpOcc>(['vnf', 'terminate', inst.id, '--forceful']);
    assert.equal(term.operation, 'TERMINATE');
    assert.ok(['STARTING', 'PROCESSING', 'COMPLETED'].includes(term.operationState), term.operationState);
    assert.equal((await waitOpOcc(server.url, term.id)).operationState, 'COMPLETED');
  });

  test('a failing operation prints the VIM error and exits 1; op retry --wait completes it', async () => {
    const inst = await createInstance(server.url, vnfdId);
    await ok(['sim', 'fault', 'add', '--kind', 'server.create', '--fail', NOVA]);
    const failed = await bosun(['vnf', 'instantiate', inst.id, '--flavour', 'simple', '--wait']);
    assert.equal(failed.code, 1, failed.stdout);
    const opId = opOccIn(failed.stdout);
    const all = lines(failed.stdout);
    // The timeline as it happened, then the outcome.
    const end = all.findIndex((l) => l.startsWith(`INSTANTIATE ${opId}: `));
    const live = all.slice(0, end).map((l) => l.replace(/^ *\+\d+\.\d s {2}/, ''));
    assert.equal(live[0], 'STARTING');
    assert.equal(live[1], 'grant …');
    assert.match(live[2] ?? '', /^grant done \(\d+\.\d s\)$/);
    assert.equal(live[3], 'PROCESSING');
    assert.ok(live.at(-2)?.startsWith('infra failed ('), live.join('\n'));
    assert.ok(live.at(-2)?.endsWith(`): ${NOVA}`), live.join('\n'));
    assert.equal(live.at(-1), 'FAILED_TEMP');
    const out = all.slice(end);
    assert.match(out[0], new RegExp(`^INSTANTIATE ${opId}: FAILED_TEMP after \\d+\\.\\d s$`));
    assert.equal(out[1], `error: ${NOVA}`);
    assert.match(out[2], /^ {7}status 500 .*step infra, infraErrorCode VIM_OPERATION_FAILED/);
    assert.equal(out[3], `next: bosun op retry ${opId} | bosun op rollback ${opId} | bosun op fail ${opId}`);
    assert.equal(lines(failed.stderr).at(-1), `bosun: error: INSTANTIATE ${opId} ended FAILED_TEMP: ${NOVA}`);

    const shown = await ok(['op', 'show', opId]);
    assert.match(shown.stdout, /^operationState\s+FAILED_TEMP$/m);
    assert.match(shown.stdout, new RegExp(`^error: ${NOVA.replaceAll('.', '\\.')}$`, 'm'));
    assert.match(shown.stdout, new RegExp(`^next: bosun op retry ${opId} `, 'm'));
    const failedTemp = await json<OpOcc[]>(['op', 'list', '--filter', '(eq,operationState,FAILED_TEMP)']);
    assert.deepEqual(
      failedTemp.map((o) => o.id),
      [opId],
    );

    const retried = await ok(['op', 'retry', opId, '--wait']);
    assert.match(retried.stdout, new RegExp(`^INSTANTIATE ${opId}: COMPLETED after`, 'm'));
    // Only what the retry did is printed: from PROCESSING on, resuming at the infra step.
    const resumed = lines(retried.stdout).map((l) => l.replace(/^ *\+\d+\.\d s {2}/, ''));
    assert.equal(resumed[0], 'PROCESSING');
    assert.equal(resumed[1], 'infra …');
    assert.ok(!resumed.includes('STARTING'), resumed.join('\n'));
    const now = await getInstance(server.url, inst.id);
    assert.equal(now.instantiationState, 'INSTANTIATED');
    assert.deepEqual(vdus(now), ['VDU1', 'VDU2']);
    // Retrying what is not FAILED_TEMP: the API's 409, one line.
    const again = await bosun(['op', 'retry', opId, '--wait']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^bosun: error: 409 Conflict: .+\n$/);
  });

  test('no zone with room: op show lists every zone tried; retry --wait completes once one has room', async () => {
    const inst = await createInstance(server.url, vnfdId);
    await ok(['sim', 'zone', 'exhaust', 'zone-a']);
    await ok(['sim', 'zone', 'exhaust', 'zone-b']);
    let opId: string;
    try {
      const failed = await bosun(['vnf', 'instantiate', inst.id, '--flavour', 'simple', '--wait']);
      assert.equal(failed.code, 1, failed.stdout);
      opId = opOccIn(failed.stdout);
      const shown = lines((await ok(['op', 'show', opId])).stdout);
      assert.ok(
        shown.some((l) => /^error: No availability zone had room for VDU\d .*tried zone-[ab] /.test(l)),
        shown.join('\n'),
      );
      const tried = shown.filter((l) => /^(zones tried:| {12}) zone-[ab]: No valid host was found/.test(l));
      assert.equal(tried.length, 2, shown.join('\n'));
      assert.match(tried[0], /→ VDU\d \(.+\) to zone-[ab]$/);
      assert.match(tried[1], /→ stopped: no zone left: every zone of the VIM \(zone-a, zone-b\) failed$/);
    } finally {
      await ok(['sim', 'zone', 'restore', 'zone-a']);
      await ok(['sim', 'zone', 'restore', 'zone-b']);
    }
    const retried = await ok(['op', 'retry', opId, '--wait']);
    assert.match(retried.stdout, new RegExp(`^INSTANTIATE ${opId}: COMPLETED after`, 'm'));
  });

  test('op rollback --wait, op fail, and op cancel of a hung operation', async () => {
    const inst = await instantiated();
    // Scale out fails; --json prints the op occ, still exit 1; rollback removes what it added.
    await fault('server.create', 'fail', NOVA);
    const failed = await bosun([
      'vnf',
      'scale',
      inst.id,
      '--aspect',
      'VDU1_scale',
      '--out',
      '--wait',
      '--json',
    ]);
    assert.equal(failed.code, 1);
    const op = JSON.parse(failed.stdout) as OpOcc;
    assert.equal(op.operationState, 'FAILED_TEMP');
    assert.equal(op.error?.detail, NOVA);
    const rolled = await ok(['op', 'rollback', op.id, '--wait']);
    assert.match(rolled.stdout, new RegExp(`^SCALE ${op.id}: ROLLED_BACK after`, 'm'));
    assert.deepEqual(vdus(await getInstance(server.url, inst.id)), ['VDU1', 'VDU2']);

    // Another failure, accepted without --wait, then marked FAILED.
    await fault('server.create', 'fail', NOVA);
    const accepted = await ok(['vnf', 'scale', inst.id, '--aspect', 'VDU1_scale', '--out']);
    const second = opOccIn(accepted.stdout);
    assert.equal((await waitOpOcc(server.url, second)).operationState, 'FAILED_TEMP');
    const marked = await ok(['op', 'fail', second]);
    assert.equal(marked.stdout, `SCALE ${second}: FAILED\n`);
    assert.equal((await getOpOcc(server.url, second)).operationState, 'FAILED');

    // A hung scale followed with --wait; cancelled FORCEFUL from another process.
    await fault('server.create', 'hang');
    const follower = bosun(['vnf', 'scale', inst.id, '--aspect', 'VDU1_scale', '--out', '--wait']);
    let hung: string | undefined;
    for (let i = 0; i < 600 && !hung; i++) {
      const list = await http<OpOcc[]>(
        server.url,
        'GET',
        `/vnflcm/v2/vnf_lcm_op_occs?filter=(eq,operationState,PROCESSING);(eq,vnfInstanceId,${inst.id})`,
        { headers: { Version: '2.0.0' } },
      );
      hung = list.body[0]?.id;
      if (!hung) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(hung, 'the scale is PROCESSING');
    const cancelled = await ok(['op', 'cancel', hung, '--forceful', '--wait']);
    assert.match(cancelled.stdout, new RegExp(`^SCALE ${hung}: FAILED_TEMP after`, 'm'));
    const followed = await follower;
    assert.equal(followed.code, 1);
    assert.match(followed.stdout, /^ +\+\d+\.\d s {2}PROCESSING$/m);
    assert.match(followed.stdout, /^ +\+\d+\.\d s {2}infra failed \(\d+\.\d s\): .*cancel/im);
    assert.match(
      followed.stderr,
      new RegExp(`^bosun: error: SCALE ${hung} ended FAILED_TEMP: .*cancel`, 'mi'),
    );
    await ok(['op', 'rollback', hung, '--wait', '--quiet']);
    assert.equal((await getOpOcc(server.url, hung)).operationState, 'ROLLED_BACK');
  });

  test('change-flavour and change-package', async () => {
    const two = (await onboardOnce(server.url, TWO_FLAVOURS)).vnfdId as string;
    const a = await createInstance(server.url, two);
    await ok(['vnf', 'instantiate', a.id, '--flavour', 'simple', '--wait', '-q']);
    await ok([
      'vnf',
      'change-flavour',
      a.id,
      '--flavour',
      'volume',
      '--level',
      'instantiation_level_2',
      '--wait',
    ]);
    assert.equal((await getInstance(server.url, a.id)).instantiatedVnfInfo?.flavourId, 'volume');

    const from = (await onboardOnce(server.url, PKG_FROM)).vnfdId as string;
    const to = (await onboardOnce(server.url, PKG_TO)).vnfdId as string;
    const b = await createInstance(server.url, from);
    await ok(['vnf', 'instantiate', b.id, '--flavour', 'simple', '--wait', '-q']);
    const changed = await json<OpOcc>(['vnf', 'change-package', b.id, '--vnfd-id', to, '--wait']);
    assert.equal(changed.operation, 'CHANGE_VNFPKG');
    assert.equal(changed.operationState, 'COMPLETED', JSON.stringify(changed.error));
    assert.equal((await getInstance(server.url, b.id)).vnfdId, to);
  });

  test('--api-version 1: /vnflcm/v1 instances and op occs', async () => {
    const v1 = ['--api-version', '1'];
    const created = await json<InstanceV1>(['vnf', 'create', '--vnfd-id', vnfdId, '--name', 'v1-a', ...v1]);
    assert.ok(created.vnfPkgId, 'a v2.6.1 VnfInstance');
    // Not a /vnflcm/v2 instance.
    const other = await bosun(['vnf', 'show', created.id]);
    assert.equal(other.code, 1);
    assert.match(other.stderr, /404 Not Found/);

    const request = join(work, 'instantiate-v1.json');
    await writeFile(request, JSON.stringify({ flavourId: 'simple' }));
    const inst = await ok(['vnf', 'instantiate', created.id, '--request-file', request, '--wait', ...v1]);
    assert.match(inst.stdout, /^INSTANTIATE [0-9a-f-]{36}: COMPLETED after/m);
    const show = async () =>
      (await http<InstanceV1>(server.url, 'GET', `${V1}/vnf_instances/${created.id}`, { headers: H1 })).body;
    const now = await show();
    assert.equal(now.instantiationState, 'INSTANTIATED');
    const shown = await ok(['vnf', 'show', created.id, ...v1]);
    assert.match(shown.stdout, /^vnfcResource\s+vdu\s+zone\s+host\s+server$/m, 'v2.6.1 has no vnfcInfo');

    // SOL002 heal on v1 names vnfcResourceInfo ids.
    const vnfc = now.instantiatedVnfInfo?.vnfcResourceInfo?.[0]?.id as string;
    await ok(['vnf', 'heal', created.id, '--vnfc', vnfc, '--wait', ...v1]);
    // change-package on v1 is a PATCH with vnfdId: a MODIFY_INFO op occ.
    const changed = await json<OpOcc>([
      'vnf',
      'change-package',
      created.id,
      '--vnfd-id',
      vnfdId,
      '--wait',
      ...v1,
    ]);
    assert.equal(changed.operation, 'MODIFY_INFO');
    assert.equal(changed.operationState, 'COMPLETED');
    const ops = await json<OpOcc[]>(['op', 'list', '--instance', created.id, ...v1]);
    assert.deepEqual(ops.map((o) => o.operation).sort(), ['HEAL', 'INSTANTIATE', 'MODIFY_INFO']);
    const listed = await json<{ id: string }[]>(['vnf', 'list', ...v1]);
    assert.deepEqual(
      listed.map((v) => v.id),
      [created.id],
    );

    await ok(['vnf', 'terminate', created.id, '--forceful', '--wait', ...v1]);
    await ok(['vnf', 'delete', created.id, ...v1]);
    assert.deepEqual(await json<unknown[]>(['vnf', 'list', ...v1]), []);
  });

  test('a server without the event stream (an older Bosun): --wait polls, a line per state on stderr', async () => {
    // A proxy that forwards everything but the timeline's stream, which it does not know (404).
    const proxy = createServer(async (req, res) => {
      if (/\/bosun\/v1\/vnf_lcm_op_occs\/[^/]+\/events/.test(req.url ?? '')) {
        res.writeHead(404, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ status: 404, detail: 'no such route' }));
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      const answer = await fetch(server.url + req.url, {
        method: req.method,
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (k !== 'content-encoding' && k !== 'content-length' && k !== 'transfer-encoding') out[k] = v;
      });
      res.writeHead(answer.status, out);
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as AddressInfo).port;
    const saved = env;
    env = { BOSUN_URL: `http://127.0.0.1:${port}` };
    try {
      const inst = await createInstance(server.url, vnfdId);
      const r = await ok(['vnf', 'instantiate', inst.id, '--flavour', 'simple', '--wait']);
      const opId = opOccIn(r.stdout);
      assert.match(r.stdout, new RegExp(`^INSTANTIATE ${opId}: COMPLETED after \\d+\\.\\d s\\n$`));
      assert.match(
        r.stderr,
        new RegExp(`^INSTANTIATE ${opId}: (STARTING|PROCESSING) \\(\\d+\\.\\d s\\)$`, 'm'),
      );
      await runTask(server.url, inst.id, 'terminate', { terminationType: 'FORCEFUL' });
    } finally {
      env = saved;
      proxy.close();
    }
  });

  test('usage errors are one line and exit 1', async () => {
    const id = '6c5b4cf5-6b9e-4a63-9d3b-2d5e3d4b0a11';
    const cases: [string[], RegExp][] = [
      [['vnf', 'create'], /give --vnfd-id \(or a --request-file with vnfdId\)/],
      [['vnf', 'instantiate', id], /give --flavour \(or a --request-file with flavourId\)/],
      [['vnf', 'terminate', id], /give --forceful or --graceful/],
      [
        ['vnf', 'terminate', id, '--forceful', '--graceful'],
        /give one of --forceful, --graceful, not several/,
      ],
      [['vnf', 'terminate', id, '--forceful', '--timeout', '5'], /--timeout applies to --graceful only/],
      [['vnf', 'scale', id, '--aspect', 'a'], /give --out or --in/],
      [['vnf', 'scale', id, '--out', '--aspect', 'a', '--steps', '0'], /--steps expects a positive integer/],
      [
        ['vnf', 'scale-to-level', id, '--level', 'l', '--aspect-level', 'a=1'],
        /give --level or --aspect-level, not both/,
      ],
      [['vnf', 'scale-to-level', id, '--aspect-level', 'a'], /--aspect-level expects aspect=level/],
      [['vnf', 'heal', id, '--param', 'novalue'], /--param expects key=value, got 'novalue'/],
      [
        ['vnf', 'heal', id, '--request-file', join(work, 'missing.json')],
        /--request-file .*missing\.json: ENOENT/,
      ],
      [['vnf', 'operate', id], /give --start or --stop/],
      [['vnf', 'change-ext-conn', id], /give --ext-vl-file/],
      [
        ['vnf', 'change-package', id, '--vnfd-id', 'x', '--param', 'a=1', '--api-version', '1'],
        /\/vnflcm\/v1 has no change_vnfpkg/,
      ],
      [['vnf', 'update', id], /nothing to update/],
      [['vnf', 'list', '--api-version', '3'], /--api-version must be 1 or 2, got '3'/],
      [['op', 'cancel', id, '--graceful', '--forceful'], /give --graceful or --forceful, not both/],
      [
        ['vnf', 'instantiate', id, '--flavour', 'simple', '--wait', '--wait-timeout', 'soon'],
        /--wait-timeout expects a number of seconds, got 'soon'/,
      ],
      [['vnf', 'show', id], /404 Not Found: VNF instance .* does not exist/],
    ];
    const runs = await Promise.all(cases.map(([args]) => bosun(args)));
    runs.forEach((r, i) => {
      const [args, message] = cases[i];
      assert.equal(r.code, 1, args.join(' '));
      assert.equal(lines(r.stderr).length, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^bosun: error: /);
      assert.match(r.stderr, message, args.join(' '));
    });
  });
});

describe('op occ progress display', () => {
  class Capture extends Writable {
    text = '';
    isTTY: boolean;
    constructor(tty: boolean) {
      super();
      this.isTTY = tty;
    }
    override _write(chunk: Buffer, _encoding: string, done: () => void) {
      this.text += chunk.toString();
      done();
    }
  }
  const op = (operationState: string, isCancelPending = false) =>
    ({ id: 'op-1', operation: 'SCALE', operationState, vnfInstanceId: 'i', isCancelPending }) as OpOcc;

  test('plain lines, one per state change, nothing for the final state', () => {
    const out = new Capture(false);
    const p = new OpOccProgress({ stream: out });
    p.update(op('STARTING'), true);
    p.tick();
    p.update(op('STARTING'), false);
    p.update(op('PROCESSING'), true);
    p.update(op('PROCESSING', true), true);
    p.update(op('FAILED_TEMP'), true);
    p.done();
    assert.deepEqual(
      out.text.split('\n').map((l) => l.replace(/\(\d+\.\d s\)/, '(t)')),
      [
        'SCALE op-1: STARTING (t)',
        'SCALE op-1: PROCESSING (t)',
        'SCALE op-1: PROCESSING (cancel pending) (t)',
        '',
      ],
    );
  });

  test('a spinner line on a terminal, redrawn in place and cleared at the end', () => {
    const out = new Capture(true);
    const p = new OpOccProgress({ stream: out });
    p.update(op('PROCESSING'), true);
    p.tick();
    p.tick();
    p.update(op('COMPLETED'), true);
    p.done();
    const frames = out.text.split('\r\x1b[K');
    assert.match(frames[0], /^SCALE op-1: PROCESSING \(\d+\.\d s\)\n$/);
    assert.match(frames[1], new RegExp(`^${OpOccProgress.FRAMES[0]} SCALE op-1: PROCESSING \\d+\\.\\d s$`));
    assert.match(frames[2], new RegExp(`^${OpOccProgress.FRAMES[1]} SCALE op-1: PROCESSING`));
    assert.match(frames[3], new RegExp(`^${OpOccProgress.FRAMES[2]} `));
    assert.equal(frames.length, 5);
    assert.equal(frames.at(-1), '', 'the line is cleared');
    assert.ok(!out.text.includes('COMPLETED'), 'the final state goes to stdout');
  });

  test('--quiet draws nothing', () => {
    const out = new Capture(true);
    const p = new OpOccProgress({ stream: out, quiet: true });
    p.update(op('PROCESSING'), true);
    p.tick();
    p.done();
    assert.equal(out.text, '');
  });
});
