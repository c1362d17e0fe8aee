/**
 * `bosun vim register --type kubernetes --kubeconfig FILE` as a real subprocess against a real
 * server and the test Kubernetes API server: the server, CA and token (or client certificate)
 * of the kubeconfig's context registered after the check reached the API server with them (its
 * nodes' zones printed), a wrong token refused with the API server's 401 and nothing stored,
 * plugins and skipped TLS verification refused by name, and the credentials never shown.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { http } from '../support/http.ts';
import { type KubeApi, startKubeApi } from '../support/kube-api/index.ts';
import { kubectlFor } from '../support/kube-api/kubectl.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;
const exec = promisify(execFile);

describe('bosun vim register --kubeconfig', () => {
  let server: TestServer;
  let api: KubeApi;

  async function bosun(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const r = await exec(BOSUN, args, { env: { PATH: process.env.PATH ?? '', BOSUN_URL: server.url } });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  before(async () => {
    api = await startKubeApi();
    const label = await kubectlFor(api)(['label', 'node', 'node-1', 'topology.kubernetes.io/zone=zone-a']);
    assert.equal(label.code, 0, label.stderr);
    server = await startTestServer('sqlite', { config: { outbound: { allow: ['127.0.0.1'] } } });
  });
  after(async () => {
    await server.close();
    await api.stop();
  });

  test('a token or a client certificate registers after the API server accepted it; a wrong token does not', async () => {
    const dir = tempDir('bosun-vim-k8s-');
    const tokenConfig = api.kubeconfig(dir, 'token');
    const ok = await bosun([
      'vim',
      'register',
      '--name',
      'k8s-token',
      '--type',
      'kubernetes',
      '--kubeconfig',
      tokenConfig,
    ]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /registered VIM .* \(k8s-token, ETSINFV\.KUBERNETES\.V_1\)/);
    assert.match(ok.stdout, /zones: zone-a/);
    const id = /registered VIM (\S+)/.exec(ok.stdout)?.[1] as string;
    const shown = await bosun(['vim', 'show', id, '--json']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.ok(!shown.stdout.includes(api.token), 'the token is never shown');
    assert.ok(!shown.stdout.includes('BEGIN CERTIFICATE'), 'nor the CA, sealed with the credentials');
    assert.match(shown.stdout, new RegExp(api.url.replace(/[.:/]/g, '\\$&')));

    const certConfig = api.kubeconfig(dir, 'cert');
    const cert = await bosun([
      'vim',
      'register',
      '--name',
      'k8s-cert',
      '--type',
      'kubernetes',
      '--kubeconfig',
      certConfig,
      '--context',
      'test',
    ]);
    assert.equal(cert.code, 0, cert.stderr);

    const wrong = join(dir, 'wrong');
    writeFileSync(wrong, readFileSync(tokenConfig, 'utf8').replace(api.token, 'not-the-token'));
    const refused = await bosun([
      'vim',
      'register',
      '--name',
      'k8s-wrong',
      '--type',
      'kubernetes',
      '--kubeconfig',
      wrong,
    ]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /422 Unprocessable Entity: The registration check of VIM k8s-wrong failed at https:\/\/127\.0\.0\.1:\d+: Kubernetes GET \/version failed \(HTTP 401\): Unauthorized; check the VIM credentials/,
    );
    assert.match(refused.stderr, /Nothing was registered\./);
    assert.doesNotMatch((await bosun(['vim', 'list'])).stdout, /k8s-wrong/);
  });

  test("Tacker's vim.yaml body for a kubernetes VIM registers after the same check", async () => {
    const body = (token: string) => ({
      vim: {
        name: token === api.token ? 'k8s-tacker' : 'k8s-tacker-wrong',
        type: 'kubernetes',
        auth_url: api.url,
        vim_project: { name: 'default' },
        auth_cred: { bearer_token: token, ssl_ca_cert: api.caPem },
        is_default: false,
      },
    });
    const made = await http<{ vim: { id: string; type: string; auth_cred?: Record<string, unknown> } }>(
      server.url,
      'POST',
      '/v1.0/vims.json',
      { body: body(api.token) },
    );
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.vim.type, 'kubernetes');
    assert.ok(!made.text.includes(api.token), 'the token is never returned');
    const refused = await http<{ detail: string }>(server.url, 'POST', '/v1.0/vims.json', {
      body: body('wrong'),
    });
    assert.equal(refused.status, 422, refused.text);
    assert.match(refused.text, /Kubernetes GET \/version failed \(HTTP 401\)/);
  });

  test('what Bosun cannot use in a kubeconfig is refused by name', async () => {
    const dir = tempDir('bosun-vim-k8s-bad-');
    const config = JSON.parse(readFileSync(api.kubeconfig(dir, 'token'), 'utf8'));
    const variant = (name: string, change: (c: typeof config) => void) => {
      const c = structuredClone(config);
      change(c);
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify(c));
      return file;
    };
    const cases: [string, RegExp][] = [
      [
        variant('insecure', (c) => {
          c.clusters[0].cluster['insecure-skip-tls-verify'] = true;
        }),
        /insecure-skip-tls-verify: Bosun always verifies/,
      ],
      [
        variant('exec', (c) => {
          c.users[0].user = { exec: { command: 'aws' } };
        }),
        /authenticates through a plugin \(exec or auth-provider\)/,
      ],
      [
        variant('nocontext', (c) => void delete c['current-context']),
        /no current-context; name one with --context/,
      ],
    ];
    for (const [file, message] of cases) {
      const r = await bosun([
        'vim',
        'register',
        '--name',
        'k8s-bad',
        '--type',
        'kubernetes',
        '--kubeconfig',
        file,
      ]);
      assert.equal(r.code, 1, r.stdout);
      assert.match(r.stderr, message);
    }
    const other = await bosun([
      'vim',
      'register',
      '--name',
      'k8s-bad',
      '--type',
      'kubernetes',
      '--kubeconfig',
      api.kubeconfig(dir),
      '--context',
      'nope',
    ]);
    assert.match(other.stderr, /it has no context nope \(it has test\)/);
  });
});
