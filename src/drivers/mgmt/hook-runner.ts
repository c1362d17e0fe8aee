/**
 * Management-driver hooks: a VNFD flavour's Vnflcm interface operations (`instantiate_start`,
 * `scale_end`, `heal_rollback_start`, …) run as subprocesses around the infra work.
 *
 * The hook's artifact is copied out of the package zip into a private temp folder and made
 * executable; it runs by its shebang, else with the interpreter its artifact type or extension
 * names (Python → python3, shell → sh, JavaScript → node). It gets one JSON document on stdin
 * ({operation, request, vnfInstance, grantRequest, grant, vnfd}) and answers a JSON object on
 * stdout (empty output means `{}`); its `vnfInstance.metadata`, `.extensions` and
 * `.vnfConfigurableProperties` are merged into the instance when the operation completes. A
 * non-zero exit, a timeout, an abort (cancel) or output that is not a JSON object fail the hook
 * with its stderr/stdout excerpts.
 */
import { execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { packageBlobKey } from '../../packages/package-record.ts';
import type { BlobStore } from '../../store/blobs/blob-store.ts';
import { openZipPackage } from '../../vnfd/csar/zip-reader.ts';
import type { Flavour, LcmOperation } from '../../vnfd/model/vnfd.ts';

const EXCERPT = 2048;
const MAX_OUTPUT = 1 << 20;

export interface HookInput {
  operation: string;
  request: unknown;
  vnfInstance: unknown;
  grantRequest?: unknown;
  grant?: unknown;
  vnfd: { vnfdId: string; vnfPkgId: string; flavourId: string; flavour: Flavour };
}

export interface HookCall {
  /** The hook (Vnflcm operation) name. */
  hook: string;
  flavour: Flavour;
  vnfPkgId: string;
  input: HookInput;
  signal: AbortSignal;
}

export type HookOutcome = { ran: false } | { ran: true; output: Record<string, unknown>; durationMs: number };

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

/**
 * The real python3 executable (resolved once: version-manager shims such as pyenv's cost half a
 * second per start), else `python3` from PATH.
 */
let python: Promise<string> | undefined;
function python3(): Promise<string> {
  python ??= new Promise((resolve) => {
    execFile('python3', ['-c', 'import sys; print(sys.executable)'], { timeout: 10000 }, (err, stdout) => {
      const path = String(stdout ?? '').trim();
      resolve(!err && path.startsWith('/') ? path : 'python3');
    });
  });
  return python;
}

/** Interpreters by artifact type fragment or file extension, for scripts without a shebang. */
const INTERPRETERS: readonly {
  match: (type: string, ext: string) => boolean;
  command: () => Promise<string[]>;
}[] = [
  { match: (t, e) => /python/i.test(t) || e === '.py', command: async () => [await python3()] },
  { match: (t, e) => /bash|shell/i.test(t) || e === '.sh' || e === '.bash', command: async () => ['sh'] },
  { match: (_t, e) => e === '.js' || e === '.mjs', command: async () => [process.execPath] },
];

/** The hook declared for `name` with an implementation artifact; undefined for none / a no-op. */
export function findHook(flavour: Flavour, name: string): LcmOperation | undefined {
  const op = flavour.lcmOperations.find((o) => o.name === name);
  return op?.artifact ? op : undefined;
}

const excerpt = (text: string) => (text.length > EXCERPT ? `…${text.slice(-EXCERPT)}` : text);

export class HookRunner {
  readonly #blobs: BlobStore;
  readonly #timeoutMs: number;

  constructor(deps: { blobs: BlobStore; timeoutMs: number }) {
    this.#blobs = deps.blobs;
    this.#timeoutMs = deps.timeoutMs;
  }

  async run(call: HookCall): Promise<HookOutcome> {
    const op = findHook(call.flavour, call.hook);
    if (!op?.artifact) return { ran: false };
    if (op.artifact.kind === 'host-path') {
      throw new HookError(
        call.hook,
        `Hook ${call.hook}: its artifact ${op.artifact.name} is ${op.artifact.path}, a path on the VNFM host rather than a file of the package; Bosun runs only scripts the package carries — ship the script in the package and reference it relative to the VNFD.`,
        { artifact: op.artifact.path },
      );
    }
    const dir = await mkdtemp(join(tmpdir(), 'bosun-hook-'));
    try {
      const file = join(dir, basename(op.artifact.path));
      await this.#extract(call.vnfPkgId, op.artifact.path, file, call.hook);
      await chmod(file, 0o700);
      const command = await commandFor(file, op.artifact.type, call.hook);
      const started = Date.now();
      const output = await this.#exec(call.hook, op.artifact.path, command, dir, call.input, call.signal);
      return { ran: true, output, durationMs: Date.now() - started };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async #extract(pkgId: string, path: string, target: string, hook: string): Promise<void> {
    const zip = await this.#blobs.localFile(packageBlobKey(pkgId));
    const opened = await openZipPackage(zip);
    if (!opened.files) throw new HookError(hook, `The package of hook ${hook} cannot be read.`);
    try {
      if (!opened.files.has(path)) {
        throw new HookError(hook, `Hook ${hook}: its artifact ${path} is not in the package.`, {
          artifact: path,
        });
      }
      await pipeline(await opened.files.openStream(path), createWriteStream(target, { mode: 0o700 }));
    } finally {
      await opened.files.close();
    }
  }

  #exec(
    hook: string,
    artifact: string,
    command: string[],
    cwd: string,
    input: HookInput,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const [file, ...args] = command;
      const child = spawn(file, args, {
        cwd,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...process.env, BOSUN_HOOK: hook },
      });
      let stdout = '';
      let stderr = '';
      let killedFor: string | undefined;
      const kill = (why: string) => {
        if (killedFor || child.exitCode !== null) return;
        killedFor = why;
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      const timer = setTimeout(() => kill(`timed out after ${this.#timeoutMs} ms`), this.#timeoutMs);
      const onAbort = () => kill('was cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      const facts = () => ({ hook, artifact, stdout: excerpt(stdout), stderr: excerpt(stderr) });
      child.stdout.on('data', (c: Buffer) => {
        if (stdout.length < MAX_OUTPUT) stdout += c.toString('utf8');
      });
      child.stderr.on('data', (c: Buffer) => {
        if (stderr.length < MAX_OUTPUT) stderr += c.toString('utf8');
      });
      child.stdin.on('error', () => {});
      child.stdin.end(JSON.stringify(input));
      child.once('error', (err) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        reject(new HookError(hook, `Hook ${hook} (${artifact}) could not start: ${err.message}`, facts()));
      });
      child.once('close', (code, sig) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const tail = (stderr.trim() || stdout.trim()).slice(-EXCERPT);
        if (killedFor) {
          reject(
            new HookError(
              hook,
              `Hook ${hook} (${artifact}) ${killedFor}${tail ? `: ${tail}` : '.'}`,
              facts(),
            ),
          );
          return;
        }
        if (code !== 0) {
          const how = code === null ? `was killed by ${sig}` : `exited with code ${code}`;
          reject(
            new HookError(hook, `Hook ${hook} (${artifact}) ${how}${tail ? `: ${tail}` : '.'}`, {
              ...facts(),
              exitCode: code,
            }),
          );
          return;
        }
        const text = stdout.trim();
        if (text === '') {
          resolve({});
          return;
        }
        try {
          const parsed = JSON.parse(text) as unknown;
          if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
            throw new Error('not an object');
          resolve(parsed as Record<string, unknown>);
        } catch {
          reject(
            new HookError(
              hook,
              `Hook ${hook} (${artifact}) answered something that is not a JSON object on stdout.`,
              facts(),
            ),
          );
        }
      });
    });
  }
}

async function commandFor(file: string, type: string, hook: string): Promise<string[]> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    if (head.toString('latin1') === '#!') return [file];
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
  return [...(await found.command()), file];
}
