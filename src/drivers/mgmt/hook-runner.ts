/**
 * Management-driver hooks: a VNFD flavour's Vnflcm interface operations (`instantiate_start`,
 * `scale_end`, `heal_rollback_start`, …) run around the infra work. An artifact that is a path on
 * the VNFM host selects a built-in driver (builtin/registry.ts), run in Bosun's process; a script
 * of the package runs as a subprocess, always in the sandbox (sandbox.ts) and only as the
 * operator's policy allows (hook-policy.ts).
 *
 * The hook's artifact is copied out of the package zip into a private folder (bound read-only at
 * /hook); it runs by its shebang, else with the interpreter its artifact type or extension names
 * (Python → python3, shell → sh, JavaScript → node), all as found inside the sandbox. It gets the
 * hook contract's input (hook-contract.ts) as JSON on stdin and answers a JSON object on stdout
 * (empty output means `{}`), checked against the contract. A non-zero exit, a limit, a timeout,
 * an abort (cancel) or an answer that breaks the contract fail the hook with its stderr/stdout
 * excerpts.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, open, rm } from 'node:fs/promises';
import { constants } from 'node:os';
import { basename, extname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { packageBlobKey } from '../../packages/package-record.ts';
import type { BlobStore } from '../../store/blobs/blob-store.ts';
import { openZipPackage } from '../../vnfd/csar/zip-reader.ts';
import type { Flavour, LcmOperation } from '../../vnfd/model/vnfd.ts';
import { BuiltinHookError, runBuiltinHook } from './builtin/run-builtin.ts';
import { HOOK_CONTRACT_VERSION, type HookInput, type HookOutput } from './hook-contract.ts';
import { checkHookOutput } from './hook-output.ts';
import { type HookPolicy, policyRefusal } from './hook-policy.ts';
import { type HookProgress, lineSplitter } from './hook-progress.ts';
import {
  checkSandbox,
  hookFolder,
  INSIDE,
  SANDBOX_PATH,
  type SandboxCheck,
  type SandboxSettings,
  sandboxArgs,
  spawnSandbox,
} from './sandbox.ts';
import type { SshSecrets } from './ssh/ssh-params.ts';

const EXCERPT = 2048;

export interface HookSettings {
  policy: HookPolicy;
  allowList: readonly string[];
  sandbox: SandboxSettings;
  timeoutMs: number;
  /** stdout and stderr kept (each); a longer answer on stdout fails the hook. */
  outputBytes: number;
}

export interface HookCall {
  /** The hook (Vnflcm operation) name. */
  hook: string;
  flavour: Flavour;
  vnfPkgId: string;
  input: HookInput;
  /** The request's SSH secrets, opened: given to built-in drivers only, never to a package script. */
  secrets?: SshSecrets;
  /** Seals what a built-in driver keeps in its answer. */
  seal?: (plain: string) => string;
  signal: AbortSignal;
  /** Phases and output lines as they happen (a script's stderr lines; a built-in driver's own). */
  progress?: HookProgress;
}

export type HookOutcome = { ran: false } | { ran: true; output: HookOutput; durationMs: number };

export class HookError extends Error {
  readonly hook: string;
  readonly facts: Record<string, unknown>;
  constructor(hook: string, message: string, facts: Record<string, unknown> = {}) {
    super(message);
    this.name = 'HookError';
    this.hook = hook;
    this.facts = facts;
  }
}

/** Interpreters (looked up on the sandbox's PATH) by artifact type or file extension, for scripts without a shebang. */
const INTERPRETERS: readonly { match: (type: string, ext: string) => boolean; command: string }[] = [
  { match: (t, e) => /python/i.test(t) || e === '.py', command: 'python3' },
  { match: (t, e) => /bash|shell/i.test(t) || e === '.sh' || e === '.bash', command: 'sh' },
  { match: (_t, e) => e === '.js' || e === '.mjs', command: 'node' },
];

/** What a signal that ended a hook means, for the signals the limits send. */
const SIGNAL_MEANING: Readonly<Record<string, string>> = {
  SIGXCPU: 'used up its CPU time (hooks.limits.cpuSeconds)',
  SIGXFSZ: 'wrote a file larger than hooks.limits.fileSizeMb',
  SIGSEGV: 'crashed (SIGSEGV; hitting hooks.limits.memoryMb can look like this)',
};

/** The hook declared for `name` with an implementation artifact; undefined for none / a no-op. */
export function findHook(flavour: Flavour, name: string): LcmOperation | undefined {
  const op = flavour.lcmOperations.find((o) => o.name === name);
  return op?.artifact ? op : undefined;
}

const excerpt = (text: string) => (text.length > EXCERPT ? `…${text.slice(-EXCERPT)}` : text);

/** How a hook ended, from bwrap's exit: bwrap reports a signal that killed the script as 128 + its number. */
function endedHow(code: number | null, sig: NodeJS.Signals | null): string {
  const signal =
    sig ??
    (code !== null && code > 128
      ? Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0]
      : undefined);
  if (signal) return SIGNAL_MEANING[signal] ?? `was killed by ${signal}`;
  return `exited with code ${code}`;
}

export class HookRunner {
  readonly #blobs: BlobStore;
  readonly #settings: HookSettings;
  #sandboxOk?: Promise<SandboxCheck>;

  constructor(deps: { blobs: BlobStore; settings: HookSettings }) {
    this.#blobs = deps.blobs;
    this.#settings = deps.settings;
  }

  /** Whether hooks can run on this host (checked again while they cannot, so installing bwrap needs no restart). */
  checkSandbox(): Promise<SandboxCheck> {
    const known = this.#sandboxOk;
    if (known) return known.then((c) => (c.ok ? c : this.#recheck()));
    return this.#recheck();
  }

  #recheck(): Promise<SandboxCheck> {
    this.#sandboxOk = checkSandbox(this.#settings.sandbox);
    return this.#sandboxOk;
  }

  async run(call: HookCall): Promise<HookOutcome> {
    const op = findHook(call.flavour, call.hook);
    if (!op?.artifact) return { ran: false };
    if (op.artifact.kind === 'host-path') {
      const started = Date.now();
      try {
        const output = await runBuiltinHook({
          hook: call.hook,
          path: op.artifact.path,
          input: call.input,
          secrets: call.secrets ?? {},
          ...(call.seal ? { seal: call.seal } : {}),
          signal: call.signal,
          ...(call.progress ? { progress: call.progress } : {}),
        });
        return { ran: true, output, durationMs: Date.now() - started };
      } catch (err) {
        if (err instanceof BuiltinHookError) throw new HookError(call.hook, err.message, err.facts);
        throw err;
      }
    }
    const artifact = op.artifact.path;
    const facts = { hook: call.hook, artifact };
    const folder = hookFolder(this.#settings.sandbox);
    try {
      const name = basename(artifact);
      const file = join(folder.dir, name);
      const sha256 = await this.#extract(call.vnfPkgId, artifact, file, call.hook);
      const refused = policyRefusal(this.#settings.policy, this.#settings.allowList, {
        hook: call.hook,
        path: artifact,
        sha256,
      });
      if (refused)
        throw new HookError(call.hook, refused, { ...facts, sha256, policy: this.#settings.policy });
      const check = await this.checkSandbox();
      if (!check.ok)
        throw new HookError(call.hook, `Hook ${call.hook} (${artifact}) cannot run: ${check.reason}`, facts);
      await chmod(file, 0o500);
      folder.handOver([file]);
      const command = await commandFor(file, `${INSIDE.hookDir}/${name}`, op.artifact.type, call.hook);
      const started = Date.now();
      const output = await this.#exec(
        call.hook,
        artifact,
        command,
        folder.dir,
        call.input,
        call.signal,
        call.progress,
      );
      return { ran: true, output, durationMs: Date.now() - started };
    } finally {
      await rm(folder.dir, { recursive: true, force: true });
    }
  }

  /** Copies the artifact out of the package; returns its SHA-256 (hex). */
  async #extract(pkgId: string, path: string, target: string, hook: string): Promise<string> {
    const zip = await this.#blobs.localFile(packageBlobKey(pkgId));
    const opened = await openZipPackage(zip);
    if (!opened.files) throw new HookError(hook, `The package of hook ${hook} cannot be read.`);
    try {
      if (!opened.files.has(path)) {
        throw new HookError(hook, `Hook ${hook}: its artifact ${path} is not in the package.`, {
          artifact: path,
        });
      }
      const hash = createHash('sha256');
      const hashing = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      });
      await pipeline(
        await opened.files.openStream(path),
        hashing,
        createWriteStream(target, { mode: 0o600 }),
      );
      return hash.digest('hex');
    } finally {
      await opened.files.close();
    }
  }

  #exec(
    hook: string,
    artifact: string,
    command: string[],
    hookDir: string,
    input: HookInput,
    signal: AbortSignal,
    progress?: HookProgress,
  ): Promise<HookOutput> {
    const { timeoutMs, outputBytes, sandbox } = this.#settings;
    const env = {
      PATH: SANDBOX_PATH,
      HOME: INSIDE.tmp,
      TMPDIR: INSIDE.tmp,
      LANG: 'C.UTF-8',
      BOSUN_HOOK: hook,
      BOSUN_HOOK_CONTRACT_VERSION: HOOK_CONTRACT_VERSION,
      BOSUN_HOOK_DIR: INSIDE.hookDir,
    };
    return new Promise((resolve, reject) => {
      const child = spawnSandbox(sandbox, sandboxArgs(sandbox, { hookDir, command, env }));
      let stdout = '';
      let stderr = '';
      let killedFor: string | undefined;
      const kill = (why: string) => {
        if (killedFor || child.exitCode !== null) return;
        killedFor = why;
        // bwrap leads its own process group; when it dies, the sandbox's pid 1 and with it every
        // process inside are killed (--die-with-parent, pid namespace).
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      const timer = setTimeout(() => kill(`timed out after ${timeoutMs} ms`), timeoutMs);
      const onAbort = () => kill('was cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      const facts = () => ({ hook, artifact, stdout: excerpt(stdout), stderr: excerpt(stderr) });
      child.stdout?.on('data', (c: Buffer) => {
        stdout += c.toString('utf8');
        if (stdout.length > outputBytes) {
          stdout = stdout.slice(0, outputBytes);
          kill(`wrote more than ${outputBytes} bytes on stdout (hooks.limits.outputBytes)`);
        }
      });
      // stdout is the script's answer; its stderr is what it says as it works, reported line by line.
      const lines = progress ? lineSplitter((line) => progress.line('stderr', line)) : undefined;
      child.stderr?.on('data', (c: Buffer) => {
        if (stderr.length < outputBytes) {
          stderr += c.toString('utf8');
          lines?.push(c);
        }
      });
      child.stdin?.on('error', () => {});
      child.stdin?.end(JSON.stringify(input));
      child.once('error', (err) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        reject(new HookError(hook, `Hook ${hook} (${artifact}) could not start: ${err.message}`, facts()));
      });
      child.once('close', (code, sig) => {
        lines?.end();
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const tail = (stderr.trim() || stdout.trim()).slice(-EXCERPT);
        const fail = (how: string, extra: Record<string, unknown> = {}) =>
          reject(
            new HookError(hook, `Hook ${hook} (${artifact}) ${how}${tail ? `: ${tail}` : '.'}`, {
              ...facts(),
              ...extra,
            }),
          );
        if (killedFor) return fail(killedFor);
        if (code !== 0) return fail(endedHow(code, sig), { exitCode: code });
        const text = stdout.trim();
        let parsed: unknown = {};
        try {
          if (text !== '') parsed = JSON.parse(text);
          if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
            throw new Error('not an object');
        } catch {
          reject(
            new HookError(
              hook,
              `Hook ${hook} (${artifact}) answered something that is not a JSON object on stdout.`,
              facts(),
            ),
          );
          return;
        }
        const checked = checkHookOutput(parsed);
        if ('problem' in checked) {
          reject(new HookError(hook, `Hook ${hook} (${artifact}): ${checked.problem}.`, facts()));
          return;
        }
        resolve(checked.output);
      });
    });
  }
}

/** The command inside the sandbox: the script itself when it has a shebang, else its interpreter and it. */
async function commandFor(file: string, inside: string, type: string, hook: string): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    if (head.toString('latin1') === '#!') return [inside];
  } finally {
    await handle.close();
  }
  const ext = extname(file).toLowerCase();
  const found = INTERPRETERS.find((i) => i.match(type, ext));
  if (!found) {
    throw new HookError(
      hook,
      `Hook ${hook}: no interpreter for ${basename(file)} (${type}); give the script a shebang line.`,
    );
  }
  return [found.command, inside];
}
