import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openZipPackage } from '../../src/vnfd/csar/zip-reader.ts';
import { addClient } from '../http/auth/oauth2-support.ts';
import { extractPackage } from '../support/extract.ts';
import { EXPECTED_SAMPLES, SAMPLES_DIR } from '../support/samples.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = join(import.meta.dirname, '../../bin/bosun');
// The sample with a manifest and artifacts; its image is a placeholder whose manifest hash is
// stale, so the tests rebuild it (`bosun package build` rewrites the hashes) into ZIP.
const SAMPLE = 'sample_vnf_package_csar_meta_in_manifest.zip';
let ZIP = '';
const FACTS = EXPECTED_SAMPLES.find((s) => s.file === SAMPLE)!;
const INVALID = EXPECTED_SAMPLES.find(
  (s) => s.file === 'sample_vnf_package_csar_in_meta_and_manifest_false.zip',
)!;

/** The VnfPkgInfo fields the tests read. */
interface Pkg {
  id: string;
  vnfdId?: string;
  vnfProvider?: string;
  onboardingState: string;
  operationalState: string;
  userDefinedData?: Record<string, unknown>;
  additionalArtifacts?: { artifactPath: string }[];
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real `bosun` with no stray BOSUN_* settings, plus `env`. */
function bosun(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Run> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BOSUN_')) clean[k] = v;
  return new Promise((resolve) => {
    execFile(BOSUN, args, { env: { ...clean, ...env }, cwd }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: number }).code : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

/** Runs and expects exit 0; returns the parsed --json output when there is one. */
async function ok(args: string[], env?: Record<string, string>): Promise<Run & { json: <T = Pkg>() => T }> {
  const r = await bosun(args, env);
  assert.equal(r.code, 0, `bosun ${args.join(' ')}: ${r.stderr}`);
  return { ...r, json: <T>() => JSON.parse(r.stdout) as T };
}

const entryOf = async (zip: string, name: string) => {
  const { files } = await openZipPackage(zip);
  assert.ok(files, `${zip} is a zip`);
  try {
    return files.has(name) ? await files.readText(name) : undefined;
  } finally {
    await files.close();
  }
};

describe('bosun package against a server', () => {
  let server: TestServer;
  let work: string;
  let url: string[];
  before(async () => {
    server = await startTestServer('sqlite', { config: { outbound: { allow: ['127.0.0.1'] } } });
    work = tempDir('bosun-pkg-api-');
    await extractPackage(join(SAMPLES_DIR, SAMPLE), join(work, 'src'));
    ZIP = join(work, 'sample.zip');
    await ok(['package', 'build', join(work, 'src'), '-o', ZIP]);
    url = ['--url', server.url];
  });
  after(() => server.close());

  test('create → upload --wait → list → show → update → download, vnfd, artifact, manifest → delete', async () => {
    const created = (await ok(['package', 'create', ...url, '--user-data', 'owner=ci', '--json'])).json();
    assert.equal(created.onboardingState, 'CREATED');
    assert.deepEqual(created.userDefinedData, { owner: 'ci' });
    const id: string = created.id;

    const uploaded = await ok(['package', 'upload', id, ZIP, '--wait', ...url]);
    assert.match(uploaded.stdout, new RegExp(`package ${id} ONBOARDED`));
    assert.match(uploaded.stdout, new RegExp(`vnfdId\\s+${FACTS.vnfdId}`));
    assert.match(uploaded.stdout, /provider\s+Company/);
    assert.match(uploaded.stdout, /product\s+Sample VNF 1\.0/);
    assert.equal(uploaded.stderr, '', 'no progress bar when stderr is not a terminal');

    // A second package, so that the filter has something to leave out.
    const other = (await ok(['package', 'create', ...url, '--json'])).json().id;
    await ok(['package', 'upload', other, join(SAMPLES_DIR, 'vnflcm1.zip'), '--wait', '--quiet', ...url]);

    // BOSUN_URL in place of --url.
    const env = { BOSUN_URL: server.url };
    const table = await ok(['package', 'list'], env);
    assert.match(table.stdout, /^id\s+vnfdId\s+product\s+version\s+onboarding\s+operational\s+usage$/m);
    assert.match(
      table.stdout,
      new RegExp(
        `^${id}\\s+${FACTS.vnfdId}\\s+Sample VNF\\s+1\\.0\\s+ONBOARDED\\s+ENABLED\\s+NOT_IN_USE$`,
        'm',
      ),
    );
    assert.match(table.stdout, new RegExp(`^${other}\\s`, 'm'));
    const filtered = (
      await ok(['package', 'list', '--filter', `(eq,vnfdId,${FACTS.vnfdId})`, '--json'], env)
    ).json<Pkg[]>();
    assert.deepEqual(
      filtered.map((p) => p.id),
      [id],
    );
    const withFields = (await ok(['package', 'list', '--all-fields', '--json'], env)).json<Pkg[]>();
    const mine = withFields.find((p) => p.id === id)!;
    assert.deepEqual(
      (mine.additionalArtifacts ?? []).map((a) => a.artifactPath).sort(),
      FACTS.additionalArtifacts!.map((a) => a.artifactPath).sort(),
    );

    const shown = (await ok(['package', 'show', id, '--json'], env)).json();
    assert.equal(shown.vnfdId, FACTS.vnfdId);
    assert.equal(shown.vnfProvider, FACTS.vnfProvider);
    assert.equal(shown.operationalState, 'ENABLED');
    const human = await ok(['package', 'show', id], env);
    assert.match(human.stdout, /^onboardingState\s+ONBOARDED$/m);

    const disabled = (await ok(['package', 'update', id, '--disable', '--json'], env)).json();
    assert.equal(disabled.operationalState, 'DISABLED');
    await ok(['package', 'update', id, '--enable'], env);
    await ok(['package', 'update', id, '--user-data', 'a=1', '--user-data', 'b=2'], env);
    await ok(['package', 'update', id, '--user-data-delete', 'a'], env);
    const after = (await ok(['package', 'show', id, '--json'], env)).json();
    assert.equal(after.operationalState, 'ENABLED');
    assert.deepEqual(after.userDefinedData, { owner: 'ci', b: '2' });
    const stale = await bosun(['package', 'update', id, '--disable', '--if-match', '"not-the-etag"'], env);
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /^bosun: error: 412 Precondition Failed: .+$/m);

    const content = join(work, 'content.zip');
    const saved = (await ok(['package', 'download', id, '-o', content, '--json'], env)).json<{
      bytes: number;
    }>();
    assert.deepEqual(await readFile(content), readFileSync(ZIP));
    assert.equal(saved.bytes, readFileSync(ZIP).length);

    const vnfd = join(work, 'vnfd.zip');
    await ok(['package', 'vnfd', id, '-o', vnfd], env);
    assert.equal(
      await entryOf(vnfd, 'Definitions/helloworld3_top.vnfd.yaml'),
      await entryOf(ZIP, 'Definitions/helloworld3_top.vnfd.yaml'),
    );

    const artifact = join(work, 'install.sh');
    await ok(['package', 'artifact', id, 'Scripts/install.sh', '-o', artifact], env);
    assert.equal(await readFile(artifact, 'utf8'), await entryOf(ZIP, 'Scripts/install.sh'));
    // With --include-signatures the artifact comes inside a zip (this sample signs nothing).
    const signedArtifact = join(work, 'install.zip');
    await ok(
      ['package', 'artifact', id, 'Scripts/install.sh', '--include-signatures', '-o', signedArtifact],
      env,
    );
    assert.equal(
      await entryOf(signedArtifact, 'Scripts/install.sh'),
      await entryOf(ZIP, 'Scripts/install.sh'),
    );

    const manifest = join(work, 'manifest.mf');
    await ok(['package', 'manifest', id, '-o', manifest], env);
    assert.equal(await readFile(manifest, 'utf8'), await entryOf(ZIP, 'manifest.mf'));

    const enabled = await bosun(['package', 'delete', id], env);
    assert.equal(enabled.code, 1, 'an ENABLED package is not deleted');
    assert.match(enabled.stderr, /^bosun: error: 409 Conflict: .+$/m);
    await ok(['package', 'update', id, '--disable'], env);
    assert.match((await ok(['package', 'delete', id], env)).stdout, new RegExp(`deleted package ${id}`));
    const gone = await bosun(['package', 'show', id], env);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /^bosun: error: 404 Not Found: .+\n$/);
    assert.equal(gone.stdout, '');
  });

  test('upload --wait of an invalid package: its failure reason, exit 1', async () => {
    const id = (await ok(['package', 'create', ...url, '--json'])).json().id;
    const r = await bosun(['package', 'upload', id, join(SAMPLES_DIR, INVALID.file), '--wait', ...url]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(
      r.stderr,
      new RegExp(
        `^bosun: error: package ${id} onboarding failed: .*${INVALID.errorContains!.replace('.', '\\.')}`,
      ),
    );
    const shown = (await ok(['package', 'show', id, '--json', ...url])).json<
      Pkg & { onboardingFailureDetails?: unknown }
    >();
    assert.equal(shown.onboardingState, 'CREATED');
    assert.match(
      JSON.stringify(shown.onboardingFailureDetails),
      new RegExp(INVALID.errorContains!.replace('.', '\\.')),
    );
    // The list tells it from a package never uploaded.
    const fresh = (await ok(['package', 'create', ...url, '--json'])).json().id;
    const table = (await ok(['package', 'list', ...url])).stdout.split('\n');
    assert.match(table.find((l) => l.startsWith(id)) ?? '', /CREATED \(onboarding failed\)/);
    assert.doesNotMatch(table.find((l) => l.startsWith(fresh)) ?? 'missing', /failed/);
    const text = (await ok(['package', 'show', id, ...url])).stdout;
    assert.match(text, /^onboardingState\s+CREATED \(onboarding failed\)$/m);
    assert.match(text, /^onboardingFailureDetails\s+The VNF package is invalid: /m);
  });

  test('upload --uri with basic auth, then --wait', async () => {
    const auth = `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;
    const files: Server = createServer((req, res) => {
      if (req.headers.authorization !== auth) {
        res.writeHead(401, { 'www-authenticate': 'Basic' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/zip' }).end(readFileSync(ZIP));
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    try {
      const uri = `http://127.0.0.1:${(files.address() as AddressInfo).port}/pkg.zip`;
      const id = (await ok(['package', 'create', ...url, '--json'])).json().id;
      const args = ['package', 'upload', id, '--uri', uri, '--user-name', 'alice', '--password', 's3cret'];
      const r = await ok([...args, '--wait', '--json', ...url]);
      const info = r.json();
      assert.equal(info.onboardingState, 'ONBOARDED');
      assert.equal(info.vnfdId, FACTS.vnfdId);
    } finally {
      files.close();
    }
  });

  test('usage errors are one line and exit 1', async () => {
    const both = await bosun(['package', 'upload', 'x', 'p.zip', '--uri', 'http://h/p.zip', ...url]);
    assert.equal(both.code, 1);
    assert.equal(both.stderr, 'bosun: error: give either a zip file or --uri, not both\n');
    const nothing = await bosun(['package', 'update', 'x', ...url]);
    assert.equal(nothing.code, 1);
    assert.match(nothing.stderr, /^bosun: error: nothing to update/);
  });
});

describe('bosun package: connection and credentials', () => {
  test('connection refused: one line naming the server and where its URL came from', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const refused = (source: string) =>
      `bosun: error: cannot connect to http://127.0.0.1:${port} (from ${source}): connection refused; ` +
      'is the Bosun server running? (--url or BOSUN_URL names another server)\n';
    const byFlag = await bosun(['package', 'list', '--url', `http://127.0.0.1:${port}`]);
    assert.equal(byFlag.code, 1);
    assert.equal(byFlag.stderr, refused('--url'));
    const byEnv = await bosun(['package', 'list'], { BOSUN_URL: `http://127.0.0.1:${port}/` });
    assert.equal(byEnv.stderr, refused('BOSUN_URL'));
    // No URL given: bosun.yaml's server section, in the current folder as the server reads it.
    const dir = tempDir('bosun-cli-conn-');
    writeFileSync(join(dir, 'bosun.yaml'), `server:\n  port: ${port}\n`);
    const byConfig = await bosun(['package', 'list'], {}, dir);
    assert.equal(
      byConfig.stderr,
      refused('server.bind and server.port of the configuration (bosun.yaml and BOSUN_* environment)'),
    );
  });

  test('oauth2 mode: client credentials get a token; without them 401', async () => {
    const server = await startTestServer('sqlite', { config: { auth: { mode: 'oauth2' } } });
    try {
      const client = await addClient(server, ['vnfpkgm:v1:all', 'vnfpkgm:v2:all'], 'p1');
      const flags = ['--url', server.url, '--client-id', client.clientId, '--client-secret', client.secret];
      const id = (await ok(['package', 'create', ...flags, '--json'])).json().id;
      const listed = (
        await ok(['package', 'list', '--json', '--url', server.url], {
          BOSUN_CLIENT_ID: client.clientId,
          BOSUN_CLIENT_SECRET: client.secret,
        })
      ).json<Pkg[]>();
      assert.deepEqual(
        listed.map((p) => p.id),
        [id],
      );
      const anonymous = await bosun(['package', 'list', '--url', server.url]);
      assert.equal(anonymous.code, 1);
      assert.match(anonymous.stderr, /^bosun: error: 401 Unauthorized: .+\n$/);
      const wrong = await bosun([
        'package',
        'list',
        '--url',
        server.url,
        '--client-id',
        client.clientId,
        '--client-secret',
        'nope',
      ]);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /^bosun: error: 401 Unauthorized: Client authentication failed/);
    } finally {
      await server.close();
    }
  });
});
