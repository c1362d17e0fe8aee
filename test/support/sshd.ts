/**
 * Real SSH nodes for the management-driver tests: Debian's `sshd` started with `-f` on its own
 * loopback address (any of 127.0.0.0/8) and port, with a temporary host key, password and key
 * authentication for one test user, and stopped by PID. The test user is made per test process
 * (`useradd`, a random password, a sudoers entry that asks for it) and removed when the process
 * exits, so no fixed password ever exists on the machine. Needs root, as sshd does to log a
 * user in.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './ports.ts';
import { tempDir } from './temp.ts';

const SSHD = '/usr/sbin/sshd';

export interface SshUser {
  name: string;
  password: string;
  /** Its private key (OpenSSH format) and the matching authorized public key line. */
  privateKey: string;
  publicKey: string;
  home: string;
}

export interface Sshd {
  host: string;
  port: number;
  /** The host's public key line (`ssh-ed25519 AAAA…`). */
  hostPublicKey(): string;
  /** Starts it again with a new host key (a replaced node, or an interception). */
  changeHostKey(): Promise<void>;
  /** What sshd logged. */
  log(): string;
  stop(): Promise<void>;
}

function keygen(file: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'bosun-test', '-f', file]);
}

let user: SshUser | undefined;
const cleanups: (() => void)[] = [];
process.once('exit', () => {
  for (const cleanup of cleanups.reverse()) {
    try {
      cleanup();
    } catch {
      // Best effort at exit: the next run makes its own user and folders.
    }
  }
});

/** This process's test user (made on first use). */
export function sshUser(): SshUser {
  if (user) return user;
  const dir = tempDir('bosun-ssh-user-');
  chmodSync(dir, 0o755);
  const name = `bsn${randomBytes(4).toString('hex')}`;
  const home = join(dir, 'home');
  execFileSync('useradd', [
    '--no-user-group',
    '--gid',
    'nogroup',
    '--home-dir',
    home,
    '--create-home',
    '--shell',
    '/bin/sh',
    name,
  ]);
  const sudoers = `/etc/sudoers.d/${name}`;
  cleanups.push(() => execFileSync('userdel', ['--force', name], { stdio: 'ignore' }));
  cleanups.push(() => rmSync(sudoers, { force: true }));
  const password = randomBytes(12).toString('base64url');
  execFileSync('chpasswd', [], { input: `${name}:${password}\n` });
  writeFileSync(sudoers, `${name} ALL=(ALL) ALL\n`, { mode: 0o440 });
  keygen(join(dir, 'id'));
  user = {
    name,
    password,
    privateKey: readFileSync(join(dir, 'id'), 'utf8'),
    publicKey: readFileSync(join(dir, 'id.pub'), 'utf8').trim(),
    home,
  };
  return user;
}

/** A loopback address of its own (127.x.y.z, not 127.0.0.1), for one node. */
export const loopbackAddress = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(2, 255)}`;

/** Starts sshd on `host:port` (a fresh loopback address and free port by default). */
export async function startSshd(
  options: {
    host?: string;
    port?: number;
    /** Environment of every session (sshd's SetEnv): e.g. a PATH with a node's own tools, a node's state folder. */
    env?: Record<string, string>;
  } = {},
): Promise<Sshd> {
  const u = sshUser();
  const host = options.host ?? loopbackAddress();
  const port = options.port ?? (await freePort());
  const dir = tempDir('bosun-sshd-');
  // sshd reads the authorized keys as the user.
  chmodSync(dir, 0o755);
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const hostKey = join(dir, 'host_key');
  keygen(hostKey);
  writeFileSync(join(dir, 'authorized_keys'), `${u.publicKey}\n`, { mode: 0o644 });
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `ListenAddress ${host}:${port}`,
      `HostKey ${hostKey}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      // The key file lives in a temp folder, not the user's home.
      'StrictModes no',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin no',
      `AllowUsers ${u.name}`,
      'UsePAM no',
      'Subsystem sftp internal-sftp',
      'LogLevel VERBOSE',
      // One SetEnv line: sshd keeps only the first line of a keyword.
      ...(options.env
        ? [
            `SetEnv ${Object.entries(options.env)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`,
          ]
        : []),
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  let out = '';
  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const c = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config')], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = c;
      let listening = false;
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (!listening && /Server listening on/.test(out)) {
          listening = true;
          resolve();
        }
      };
      c.stdout?.on('data', onData);
      c.stderr?.on('data', onData);
      c.once('exit', (code) => {
        if (!listening) reject(new Error(`sshd exited (${code}) before listening:\n${out}`));
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const c = child;
      if (!c?.pid || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      process.kill(c.pid, 'SIGTERM');
    });
  cleanups.push(() => {
    if (child?.pid && child.exitCode === null && child.signalCode === null)
      process.kill(child.pid, 'SIGTERM');
  });
  await launch();
  return {
    host,
    port,
    hostPublicKey: () => readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' '),
    async changeHostKey() {
      await stop();
      rmSync(hostKey);
      rmSync(`${hostKey}.pub`);
      keygen(hostKey);
      out = '';
      await launch();
    },
    log: () => out,
    stop,
  };
}
