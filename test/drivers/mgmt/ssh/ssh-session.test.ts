/**
 * The remote command executor against real sshd nodes (test/support/sshd.ts): commands, their
 * exit status and bounded output; password and key authentication; the host-key policy (a key
 * on record accepted, a changed one refused, accept-new learning a new node, strict refusing an
 * unknown one); an unreachable node retried with back-off into a clear error; command timeout;
 * SFTP upload; sudo; abort by the operation's signal.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { knownFingerprint } from '../../../../src/drivers/mgmt/ssh/host-keys.ts';
import { connectSsh, SshError, type SshOptions } from '../../../../src/drivers/mgmt/ssh/ssh-session.ts';
import { freePort } from '../../../support/ports.ts';
import { loopbackAddress, type Sshd, type SshUser, sshUser, startSshd } from '../../../support/sshd.ts';

const options = (over: Partial<SshOptions> = {}): SshOptions => ({
  hostKeyPolicy: 'accept-new',
  connectTimeoutMs: 5000,
  commandTimeoutMs: 10_000,
  attempts: 1,
  backoffMs: 50,
  maxBackoffMs: 200,
  outputBytes: 4096,
  signal: new AbortController().signal,
  ...over,
});

describe('SSH remote command executor', () => {
  let node: Sshd;
  let user: SshUser;
  before(async () => {
    user = sshUser();
    node = await startSshd();
  });
  after(() => node.stop());

  const password = () => ({ username: user.name, password: user.password });

  test('runs a command with password authentication and returns its output and exit status', async () => {
    const s = await connectSsh(node.host, node.port, password(), options());
    try {
      const r = await s.exec('echo out; echo err >&2; id -un');
      assert.equal(r.exitCode, 0);
      assert.equal(r.stdout, `out\n${user.name}\n`);
      assert.equal(r.stderr, 'err\n');
      assert.equal(r.truncated, false);
      const failed = await s.exec('exit 3', { allowFailure: true });
      assert.equal(failed.exitCode, 3);
      await assert.rejects(s.exec('echo half-way; echo broken >&2; exit 7'), (err: SshError) => {
        assert.ok(err instanceof SshError);
        assert.match(err.message, /exited with status 7: broken/);
        assert.equal(err.facts.exitCode, 7);
        assert.equal(err.facts.stdout, 'half-way\n');
        return true;
      });
    } finally {
      s.close();
    }
  });

  test('keeps only the tail of a long output, bounded by outputBytes', async () => {
    const s = await connectSsh(node.host, node.port, password(), options({ outputBytes: 100 }));
    try {
      const r = await s.exec('seq 1 10000');
      assert.equal(r.truncated, true);
      assert.equal(Buffer.byteLength(r.stdout), 100);
      assert.ok(r.stdout.endsWith('9999\n10000\n'));
    } finally {
      s.close();
    }
  });

  test('authenticates with a private key; a wrong password is refused naming what to check, never the password', async () => {
    const s = await connectSsh(
      node.host,
      node.port,
      { username: user.name, privateKey: user.privateKey },
      options(),
    );
    try {
      assert.equal((await s.exec('id -un')).stdout.trim(), user.name);
    } finally {
      s.close();
    }
    await assert.rejects(
      connectSsh(
        node.host,
        node.port,
        { username: user.name, password: 'not-the-password-x1' },
        options({ attempts: 3 }),
      ),
      (err: Error) => {
        assert.match(
          err.message,
          /refused the credentials \(password authentication\): check additionalParams\.ssh\.username/,
        );
        assert.doesNotMatch(err.message + JSON.stringify((err as SshError).facts), /not-the-password-x1/);
        return true;
      },
    );
  });

  test('host keys: the key on record is accepted, accept-new learns a new node, strict refuses an unknown one, a changed key is refused under both', async () => {
    const known = knownFingerprint(node.hostPublicKey());
    assert.ok(known);
    const strict = await connectSsh(
      node.host,
      node.port,
      password(),
      options({ hostKeyPolicy: 'strict', knownFingerprint: known }),
    );
    assert.deepEqual(strict.hostKey, { fingerprint: known, learnt: false });
    strict.close();
    const learnt = await connectSsh(
      node.host,
      node.port,
      password(),
      options({ hostKeyPolicy: 'accept-new' }),
    );
    assert.deepEqual(learnt.hostKey, { fingerprint: known, learnt: true });
    learnt.close();
    await assert.rejects(
      connectSsh(node.host, node.port, password(), options({ hostKeyPolicy: 'strict' })),
      /is not known and the host-key policy is strict: give it in additionalParams\.ssh\.knownHosts/,
    );
    const other = await startSshd();
    try {
      await other.changeHostKey();
      const changed = knownFingerprint(other.hostPublicKey());
      assert.notEqual(changed, known);
      for (const policy of ['strict', 'accept-new'] as const) {
        await assert.rejects(
          connectSsh(
            other.host,
            other.port,
            password(),
            options({ hostKeyPolicy: policy, knownFingerprint: known, attempts: 3 }),
          ),
          (err: SshError) => {
            assert.match(
              err.message,
              new RegExp(
                `the host key of ${other.host}:${other.port} changed: it offered ${changed?.replace(/[+/]/g, '\\$&')}, but ${known.replace(/[+/]/g, '\\$&')} is on record`,
              ),
            );
            return true;
          },
        );
      }
      // Nothing was sent: sshd saw no authentication attempt.
      assert.doesNotMatch(other.log(), /Accepted|Failed password/);
    } finally {
      await other.stop();
    }
  });

  test('an unreachable node is tried again with back-off, then ends in an error naming the address and the attempts', async () => {
    const host = loopbackAddress();
    const port = await freePort();
    await assert.rejects(
      connectSsh(host, port, password(), options({ attempts: 4, backoffMs: 40, maxBackoffMs: 80 })),
      (err: SshError) => {
        assert.match(
          err.message,
          new RegExp(
            `${host.replaceAll('.', '\\.')}:${port} could not be reached over SSH after 4 attempts \\(the last: .*ECONNREFUSED`,
          ),
        );
        assert.match(err.message, /check that the node is up/);
        return true;
      },
    );
  });

  test('a node that comes up while it is being retried is reached', async () => {
    const host = loopbackAddress();
    const port = await freePort();
    const late = new Promise<Sshd>((resolve, reject) => {
      setTimeout(() => startSshd({ host, port }).then(resolve, reject), 300);
    });
    const s = await connectSsh(
      host,
      port,
      password(),
      options({ attempts: 30, backoffMs: 50, maxBackoffMs: 200 }),
    );
    try {
      assert.equal((await s.exec('echo up')).stdout, 'up\n');
    } finally {
      s.close();
      await (await late).stop();
    }
  });

  test('a command that runs too long is ended with a timeout error', async () => {
    const s = await connectSsh(node.host, node.port, password(), options({ commandTimeoutMs: 300 }));
    try {
      await assert.rejects(
        s.exec('echo started; sleep 30'),
        /timed out after 300 ms \(commandTimeoutMs\): started/,
      );
      // The remote command was killed, not left running.
      const processes = execFileSync('ps', ['-e', '-o', 'user:32=,args=']).toString().split('\n');
      assert.deepEqual(
        processes.filter((p) => p.startsWith(`${user.name} `) && p.includes('sleep 30')),
        [],
      );
    } finally {
      s.close();
    }
  });

  test('uploads a file over SFTP with the mode asked for', async () => {
    const s = await connectSsh(node.host, node.port, password(), options());
    try {
      const remote = join(user.home, 'uploaded.sh');
      await s.upload('#!/bin/sh\necho from-upload\n', remote, 0o700);
      assert.equal(readFileSync(remote, 'utf8'), '#!/bin/sh\necho from-upload\n');
      assert.equal((await s.exec(remote)).stdout, 'from-upload\n');
      assert.equal((await s.exec(`stat -c %a ${remote}`)).stdout.trim(), '700');
      await assert.rejects(s.upload('x', '/root/not-allowed'), /Uploading \/root\/not-allowed to .* failed/);
    } finally {
      s.close();
    }
  });

  test('runs a command under sudo with the password; with a key and no password, sudo -n says it needs one', async () => {
    const s = await connectSsh(node.host, node.port, password(), options());
    try {
      const r = await s.exec('id -u; echo "$(whoami)" | cat', { sudo: true });
      assert.equal(r.stdout, '0\nroot\n');
    } finally {
      s.close();
    }
    const k = await connectSsh(
      node.host,
      node.port,
      { username: user.name, privateKey: user.privateKey },
      options(),
    );
    try {
      await assert.rejects(k.exec('id -u', { sudo: true }), /exited with status 1: .*password is required/);
    } finally {
      k.close();
    }
  });

  test("the operation's signal aborts a running command and a connection being retried", async () => {
    const controller = new AbortController();
    const s = await connectSsh(node.host, node.port, password(), options({ signal: controller.signal }));
    const running = s.exec('sleep 30');
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(running, /was cancelled/);
    s.close();
    const retrying = new AbortController();
    const connecting = connectSsh(
      loopbackAddress(),
      await freePort(),
      password(),
      options({ attempts: 1000, backoffMs: 50, signal: retrying.signal }),
    );
    setTimeout(() => retrying.abort(), 200);
    await assert.rejects(connecting, /was cancelled/);
  });

  test('fingerprints are those of ssh-keygen -l', () => {
    const line = execFileSync('ssh-keygen', ['-l', '-f', '-'], { input: node.hostPublicKey() }).toString();
    const expected = line.split(' ')[1];
    assert.match(expected ?? '', /^SHA256:/);
    assert.equal(knownFingerprint(node.hostPublicKey()), expected);
    assert.equal(knownFingerprint(`${node.host} ${node.hostPublicKey()}`), expected);
    assert.equal(knownFingerprint(expected as string), expected);
    assert.equal(knownFingerprint('not a key'), undefined);
  });
});
