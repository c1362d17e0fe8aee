/**
 * The sandbox package code runs in: bubblewrap (`bwrap`, Debian's `bubblewrap`) with new user,
 * pid, IPC, UTS and cgroup namespaces (and a network one under `hooks.network: none`). Inside:
 * the system folders and a short list of /etc files read-only, the hook's own folder read-only at
 * /hook, a private size-limited /tmp and /dev/shm (everything else read-only), a fresh /proc that
 * shows only the sandbox's processes, a minimal /dev, no capabilities, no further user
 * namespaces, a seccomp filter (seccomp.ts), and only the contract's environment. Nothing of
 * Bosun is there: not its data folder, configuration, key file, database or socket files,
 * working folder, environment or processes. Limits (CPU time, address space, processes, file size) are set by `prlimit` inside,
 * just before the script starts.
 *
 * bwrap itself starts with an empty environment (its pid 1 in the sandbox would otherwise show
 * the server's in /proc/1/environ) and, when Bosun runs as root, as the unprivileged hook user,
 * so that the kernel, not only the namespaces, refuses the hook what that user may not touch.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, chownSync, constants, lstatSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { seccompFilter } from './seccomp.ts';

export interface SandboxSettings {
  /** The bwrap executable; found on the server's PATH when not given. */
  bwrap?: string;
  network: 'allow' | 'none';
  /** The user and group hooks run as when Bosun runs as root. */
  uid: number;
  gid: number;
  limits: { cpuSeconds: number; memoryMb: number; processes: number; fileSizeMb: number; tmpMb: number };
}

/** Where things are inside the sandbox. */
export const INSIDE = { hookDir: '/hook', tmp: '/tmp', bin: '/opt/bosun/bin' } as const;

export const SANDBOX_PATH = `${INSIDE.bin}:/usr/local/bin:/usr/bin:/bin`;

/** Inside uid/gid: nobody, whoever runs the sandbox outside. */
const INSIDE_ID = '65534';

/** System folders: a symlink on the host (merged /usr) is recreated, a folder bound read-only. */
const SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * What scripts need of /etc: users and groups (ssh wants its own), name resolution, TLS roots,
 * SSH client settings, the dynamic loader's cache, time zone, alternatives (interpreter links).
 * Never the rest: /etc/shadow, /etc/ssl/private, host SSH keys, Bosun's own configuration.
 */
const ETC = [
  'passwd',
  'group',
  'hosts',
  'resolv.conf',
  'nsswitch.conf',
  'host.conf',
  'gai.conf',
  'services',
  'protocols',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'timezone',
  'alternatives',
  'ssl/certs',
  'ssl/openssl.cnf',
  'ssh/ssh_config',
  'ssh/ssh_config.d',
  'os-release',
];

/** bwrap on the server's PATH (bwrap itself gets an empty environment, so no PATH to search with). */
function bwrapPath(): string | undefined {
  return (process.env.PATH ?? '')
    .split(':')
    .filter((d) => d.startsWith('/'))
    .map((d) => join(d, 'bwrap'))
    .find((p) => {
      try {
        accessSync(p, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

const asRoot = () => process.getuid?.() === 0;

function systemBinds(): string[] {
  const args: string[] = [];
  for (const path of SYSTEM) {
    try {
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
      else if (stat.isDirectory()) args.push('--ro-bind', path, path);
    } catch {
      // Not on this host (e.g. /libx32).
    }
  }
  return args;
}

const MIB = 1024 * 1024;

/** The seccomp filter (seccomp.ts), handed to bwrap on this descriptor. */
const FILTER = seccompFilter();
const FILTER_FD = 3;

/** The bwrap arguments that run `command` (paths as seen inside) with `env` and the hook folder `hookDir`. */
export function sandboxArgs(
  settings: SandboxSettings,
  run: { hookDir: string; command: string[]; env: Record<string, string> },
): string[] {
  const { limits } = settings;
  return [
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(settings.network === 'none' ? ['--unshare-net'] : []),
    '--disable-userns',
    '--uid',
    INSIDE_ID,
    '--gid',
    INSIDE_ID,
    '--hostname',
    'bosun-hook',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    ...Object.entries(run.env).flatMap(([k, v]) => ['--setenv', k, v]),
    ...systemBinds(),
    ...ETC.flatMap((p) => ['--ro-bind-try', `/etc/${p}`, `/etc/${p}`]),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(limits.tmpMb * MIB),
    '--tmpfs',
    '/dev/shm',
    '--size',
    String(limits.tmpMb * MIB),
    '--tmpfs',
    INSIDE.tmp,
    '--ro-bind',
    run.hookDir,
    INSIDE.hookDir,
    // Bosun's own Node.js, for JavaScript hooks (a single executable, nothing of Bosun's code);
    // left out when the hook user cannot reach it (then JavaScript hooks find no node).
    '--ro-bind-try',
    process.execPath,
    `${INSIDE.bin}/node`,
    // The sandbox's own root and /dev are unbounded tmpfs: read-only once everything is mounted,
    // so that only the size-limited /tmp and /dev/shm take writes.
    '--remount-ro',
    '/dev',
    '--remount-ro',
    '/',
    '--chdir',
    INSIDE.tmp,
    ...(FILTER ? ['--seccomp', String(FILTER_FD)] : []),
    '--',
    '/usr/bin/prlimit',
    // SIGXCPU at the limit (the hook can tell), SIGKILL a second later.
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--as=${limits.memoryMb * MIB}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeMb * MIB}`,
    '--core=0',
    '--',
    ...run.command,
  ];
}

/** Starts bwrap with `args`: empty environment, its own process group, as the hook user when root. */
export function spawnSandbox(settings: SandboxSettings, args: string[]): ChildProcess {
  const bwrap = settings.bwrap ?? bwrapPath();
  if (!bwrap) throw new Error(`bwrap is not installed (not on the server's PATH: ${process.env.PATH ?? ''})`);
  const child = spawn(bwrap, args, {
    cwd: '/',
    env: {},
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe', ...(FILTER ? (['pipe'] as const) : [])],
    ...(asRoot() ? { uid: settings.uid, gid: settings.gid } : {}),
  });
  const filterPipe = child.stdio[FILTER_FD] as Writable | null | undefined;
  if (FILTER && filterPipe) {
    filterPipe.on('error', () => {}); // bwrap failed before reading it: its exit says why.
    filterPipe.end(FILTER);
  }
  return child;
}

/**
 * A new private folder for a hook's files (removed by the caller). Bosun fills it while it is
 * Bosun's alone; `handOver` then gives it and its files to the hook user when Bosun runs as root
 * (bwrap, running as that user, must read it to bind it) — never before, so that no process of
 * that user can plant a link in it for Bosun to write through.
 */
export function hookFolder(settings: SandboxSettings): { dir: string; handOver(files: string[]): void } {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-hook-'));
  return {
    dir,
    handOver(files) {
      if (!asRoot()) return;
      for (const path of [...files, dir]) chownSync(path, settings.uid, settings.gid);
    },
  };
}

export type SandboxCheck = { ok: true } | { ok: false; reason: string };

const HOST_NEEDS =
  'Hooks run in a bubblewrap sandbox: the host needs bwrap (Debian: apt-get install bubblewrap), ' +
  'util-linux prlimit, and unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 ' +
  'and user.max_user_namespaces > 0; in a container, a seccomp or AppArmor profile that allows them)';

/** Whether a sandbox can be made here: runs `true` in one, exactly as a hook would run. */
export function checkSandbox(settings: SandboxSettings): Promise<SandboxCheck> {
  const folder = hookFolder(settings);
  const { dir } = folder;
  folder.handOver([]);
  return new Promise<SandboxCheck>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawnSandbox(
        settings,
        sandboxArgs(settings, { hookDir: dir, command: ['/bin/true'], env: { PATH: SANDBOX_PATH } }),
      );
    } catch (err) {
      resolve({ ok: false, reason: `${HOST_NEEDS}. ${(err as Error).message}.` });
      return;
    }
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString('utf8')).slice(-2048);
    });
    child.stdin?.end();
    child.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ENOENT' ? 'bwrap is not installed' : `bwrap could not start (${err.message})`;
      resolve({ ok: false, reason: `${HOST_NEEDS}. ${why}.` });
    });
    child.once('close', (code) => {
      resolve(
        code === 0
          ? { ok: true }
          : {
              ok: false,
              reason: `${HOST_NEEDS}. bwrap failed (exit ${code}): ${stderr.trim() || 'no output'}`,
            },
      );
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}
