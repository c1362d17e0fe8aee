/**
 * `bosun serve` as a child process for the benchmarks: the real server, measured from outside as
 * an operator would run it. Its log goes to our stdout's reader (for the listening URL) and its
 * errors to our stderr.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;

export interface BosunProcess {
  child: ChildProcess;
  url: string;
  /** SIGTERM, resolved once the process has exited (its graceful shutdown is part of the run). */
  stop(): Promise<void>;
}

/**
 * Starts `bosun serve` on a free port with `env` over ours (and `args`, e.g. `--role worker`);
 * resolves once it listens.
 */
export async function startBosun(env: Record<string, string>, args: string[] = []): Promise<BosunProcess> {
  const child = spawn(BOSUN, ['serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /"url":"(http:[^"]+)"/.exec(line);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`bosun serve exited with ${code}`)));
  });
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return { child, url, stop };
}
