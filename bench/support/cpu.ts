/**
 * CPU time of processes from /proc (Linux): how much of the machine's cores PostgreSQL and
 * Bosun's own processes took during a measurement.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const TICKS_PER_S = 100;

/** utime + stime of process `pid`, in seconds (0 when it is gone). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** The pids of every process whose command name is `comm` (e.g. "postgres"). */
export function pidsNamed(comm: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Measures the CPU that `pids()` (looked up at start and end) use while `work` runs. */
export async function cpuShare<T>(
  groups: Record<string, () => number[]>,
  work: () => Promise<T>,
): Promise<{ result: T; share: Record<string, number> }> {
  const sample = () =>
    Object.fromEntries(
      Object.entries(groups).map(([name, pids]) => [
        name,
        new Map(pids().map((pid) => [pid, cpuSeconds(pid)] as const)),
      ]),
    );
  const before = sample();
  const started = performance.now();
  const result = await work();
  const wall = (performance.now() - started) / 1000;
  const after = sample();
  const share: Record<string, number> = {};
  for (const [name, pids] of Object.entries(after)) {
    let used = 0;
    for (const [pid, seconds] of pids) used += seconds - (before[name].get(pid) ?? 0);
    share[name] = used / (wall * availableParallelism());
  }
  return { result, share };
}
