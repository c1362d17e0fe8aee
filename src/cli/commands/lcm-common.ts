/**
 * What `bosun vnf …` and `bosun op …` share: the LCM options (--api-version, --json, --wait…),
 * request bodies from flags and --request-file, and following an op occ to its end: its timeline
 * live from the server's event stream (each state, step, management-driver phase and output line
 * as it happens; on stderr with --json), or, from a server without one, its state changes by
 * polling on stderr; a spinner line on a terminal; then the final state on stdout, and the error
 * (and what can be done next) when it did not succeed.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import { followTimeline, NoEventStream, type OpEvent } from '../api-client/timeline.ts';
import { FINAL_STATES, followOpOcc, LcmApi, type LcmMajor, type OpOcc } from '../api-client/vnf-instances.ts';
import { CliError, emit, printJson } from '../output.ts';
import { timelineLine } from './timeline-lines.ts';

export interface LcmOptions extends ConnectionOptions {
  json?: boolean;
  apiVersion: string;
}

export interface WaitOptions extends LcmOptions {
  wait?: boolean;
  waitTimeout: string;
  quiet?: boolean;
}

export const say = (line: string) => process.stdout.write(line + '\n');

/** A sub-command with the connection options, --api-version and --json. */
export function lcmCommand(parent: Command, spec: string, description: string): Command {
  return withConnectionOptions(parent.command(spec).description(description))
    .option(
      '--api-version <major>',
      'LCM API major: 2 (/vnflcm/v2, SOL003 v3.3.1) or 1 (/vnflcm/v1, v2.6.1)',
      '2',
    )
    .option('--json', 'print JSON');
}

/** Adds --wait, --wait-timeout and --quiet. */
export function withWait(command: Command): Command {
  return command
    .option('--wait', 'follow the operation to its end; exit 1 with its error unless it succeeds')
    .option('--wait-timeout <seconds>', 'give up waiting after this many seconds', '3600')
    .option('-q, --quiet', 'with --wait: no progress on stderr');
}

export function majorOf(opts: LcmOptions): LcmMajor {
  const v = String(opts.apiVersion).replace(/^v/, '');
  if (v !== '1' && v !== '2') throw new CliError(`--api-version must be 1 or 2, got '${opts.apiVersion}'`);
  return `v${v}`;
}

/** The LCM API the options name; checks --wait-timeout up front, before anything is sent. */
export function lcmOf(opts: LcmOptions & { waitTimeout?: string }): LcmApi {
  if (opts.waitTimeout !== undefined) waitSeconds(opts.waitTimeout);
  return new LcmApi(ApiClient.from(opts), majorOf(opts));
}

function waitSeconds(raw: string): number {
  const timeout = Number(raw);
  if (!(timeout > 0)) throw new CliError(`--wait-timeout expects a number of seconds, got '${raw}'`);
  return timeout;
}

/** ` --api-version 1` when the command talked to v1, for the hints printed to the user. */
const versionFlag = (lcm: LcmApi) => (lcm.major === 'v1' ? ' --api-version 1' : '');

/**
 * The JSON value in `file` (standard input for `-` where `stdin` allows it), or a one-line error
 * naming the option: the file cannot be read, or is not JSON.
 */
async function readJson(file: string, option: string, stdin: boolean): Promise<unknown> {
  let text: string;
  try {
    text = stdin && file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (err) {
    throw new CliError(`${option} ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${option} ${file}: not JSON (${(err as Error).message})`);
  }
}

/** A JSON object from a file (`-` reads stdin). */
export async function readJsonObject(
  file: string,
  option = '--request-file',
): Promise<Record<string, unknown>> {
  const value = await readJson(file, option, true);
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliError(`${option} ${file}: expected a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** A JSON array from a file (for --ext-vl-file and the like). */
export async function readJsonArray(file: string, option: string): Promise<unknown[]> {
  let value = await readJson(file, option, false);
  // A whole request holding the array is accepted too ({"extVirtualLinks": […]}).
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const arrays = Object.values(value).filter(Array.isArray);
    if (arrays.length === 1) value = arrays[0];
  }
  if (!Array.isArray(value)) throw new CliError(`${option} ${file}: expected a JSON array`);
  return value;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function positiveInt(option: string, raw: string | undefined, min = 1): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new CliError(
      `${option} expects ${min === 0 ? 'a non-negative' : 'a positive'} integer, got '${raw}'`,
    );
  }
  return n;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Progress of an op occ on stderr: a spinner line on a terminal, plain lines otherwise. */
export class OpOccProgress {
  static readonly FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  readonly #out: NodeJS.WritableStream & { isTTY?: boolean };
  readonly #tty: boolean;
  readonly #quiet: boolean;
  readonly #started: number;
  #frame = 0;
  #current: OpOcc | undefined;
  #drawn = false;

  constructor(options: {
    quiet?: boolean;
    stream?: NodeJS.WritableStream & { isTTY?: boolean };
    now?: number;
  }) {
    this.#out = options.stream ?? process.stderr;
    this.#tty = this.#out.isTTY === true;
    this.#quiet = options.quiet === true;
    this.#started = options.now ?? Date.now();
  }

  #label(o: OpOcc): string {
    return `${o.operation} ${o.id}: ${o.operationState}${o.isCancelPending ? ' (cancel pending)' : ''}`;
  }

  /** A new read of the op occ: a line per state change (final states are printed on stdout). */
  update(o: OpOcc, changed: boolean): void {
    this.#current = o;
    if (this.#quiet || !changed || FINAL_STATES.includes(o.operationState)) {
      if (this.#tty) this.tick();
      return;
    }
    this.#clear();
    this.#out.write(`${this.#label(o)} (${seconds(Date.now() - this.#started)})\n`);
    if (this.#tty) this.tick();
  }

  /** Redraws the spinner line (terminals only). */
  tick(): void {
    if (this.#quiet || !this.#tty || !this.#current) return;
    if (FINAL_STATES.includes(this.#current.operationState)) {
      this.#clear();
      return;
    }
    const frame = OpOccProgress.FRAMES[this.#frame++ % OpOccProgress.FRAMES.length];
    this.#out.write(`\r\x1b[K${frame} ${this.#label(this.#current)} ${seconds(Date.now() - this.#started)}`);
    this.#drawn = true;
  }

  #clear(): void {
    if (!this.#drawn) return;
    this.#out.write('\r\x1b[K');
    this.#drawn = false;
  }

  /** Leaves the terminal line clean. */
  done(): void {
    this.#clear();
  }

  elapsed(): string {
    return seconds(Date.now() - this.#started);
  }
}

/** The error of an op occ as lines: its detail, then its status and other fields on one line. */
export function errorLines(error: NonNullable<OpOcc['error']>): string[] {
  const lines = [`error: ${error.detail ?? error.title ?? '(no detail)'}`];
  const status = [error.status, error.title].filter((v) => v !== undefined && v !== null).join(' ');
  const extra = Object.entries(error)
    .filter(
      ([k, v]) =>
        !['detail', 'type', 'instance', 'status', 'title', 'placementAttempts'].includes(k) &&
        v !== undefined &&
        v !== null,
    )
    .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  const more = [...(status ? [`status ${status}`] : []), ...extra];
  if (more.length) lines.push(`       ${more.join(', ')}`);
  return [...lines, ...placementLines(error.placementAttempts)];
}

interface PlacementAttemptView {
  zone?: string;
  reason?: string;
  next?: { vnfcId?: string; vduId?: string; zone?: string }[];
  notes?: string[];
  stopped?: string;
}

/** One line per zone tried when one had no room: the zone, the VIM's reason, what came next. */
function placementLines(attempts: unknown): string[] {
  if (!Array.isArray(attempts) || attempts.length === 0) return [];
  return (attempts as PlacementAttemptView[]).map((a, i) => {
    const next = a.stopped
      ? `stopped: ${a.stopped}`
      : (a.next ?? []).map((n) => `${n.vduId} (${n.vnfcId}) to ${n.zone}`).join(', ');
    const notes = a.notes?.length ? ` [${a.notes.join(' ')}]` : '';
    return `${i === 0 ? 'zones tried:' : '            '} ${a.zone}: ${a.reason} → ${next}${notes}`;
  });
}

/** `bosun op …` commands offered by the op occ's links (retry, rollback, fail, cancel). */
export function nextSteps(lcm: LcmApi, o: OpOcc): string | undefined {
  const tasks = ['retry', 'rollback', 'fail', 'cancel'].filter((t) => o._links?.[t]);
  if (!tasks.length) return undefined;
  return tasks.map((t) => `bosun op ${t} ${o.id}${versionFlag(lcm)}`).join(' | ');
}

export interface FinishOptions {
  /** States that end the command successfully (default COMPLETED). */
  success?: readonly string[];
  /** What was accepted, for the line printed without --wait. */
  what: string;
  /** Timeline events up to this number happened before the command (a retry's earlier attempts): not printed. */
  after?: number;
}

/**
 * Follows the op occ's timeline live, printing each event (stdout; stderr with --json, whose
 * stdout is the final op occ), the spinner turning on a terminal. False when the server has no
 * event stream: the caller polls.
 */
async function followLive(
  lcm: LcmApi,
  opOccId: string,
  opts: WaitOptions,
  progress: OpOccProgress,
  after: number,
  deadline: AbortSignal,
): Promise<boolean> {
  const out = opts.json ? process.stderr : process.stdout;
  let start: number | undefined;
  let current: OpOcc = { id: opOccId, operation: '', operationState: 'STARTING', vnfInstanceId: '' };
  const spinner = setInterval(() => progress.tick(), 100);
  const print = (event: OpEvent) => {
    if (event.kind === 'state') {
      current = { ...current, operationState: event.state };
      progress.update(current, false);
    }
    // The error is printed in full with the final state.
    if (opts.quiet || event.kind === 'error') return;
    start ??= Date.parse(event.at);
    progress.done();
    out.write(`${timelineLine(event, start)}\n`);
  };
  try {
    current = await lcm.getOpOcc(opOccId);
    progress.update(current, false);
    await followTimeline(lcm.api, opOccId, { after, onEvent: print, signal: deadline });
    return true;
  } catch (err) {
    if (err instanceof NoEventStream) return false;
    if (deadline.aborted)
      throw new CliError(
        `op occ ${opOccId} (${current.operation}) still ${current.operationState} after ${opts.waitTimeout} s`,
      );
    throw err;
  } finally {
    clearInterval(spinner);
    progress.done();
  }
}

/**
 * After an accepted operation (or op occ task): without --wait, say it was accepted (--json: the
 * op occ as it is now); with --wait, follow it and print its final state, and throw — exit 1 —
 * with its error when it did not end in one of `success`.
 */
export async function finish(lcm: LcmApi, opOccId: string, opts: WaitOptions, finishing: FinishOptions) {
  if (!opts.wait) {
    if (opts.json) printJson(await lcm.getOpOcc(opOccId));
    else
      say(
        `${finishing.what} accepted: op occ ${opOccId} (follow it with: bosun op show ${opOccId}${versionFlag(lcm)})`,
      );
    return;
  }
  const timeout = waitSeconds(opts.waitTimeout);
  const progress = new OpOccProgress({ quiet: opts.quiet });
  const deadline = AbortSignal.timeout(timeout * 1000);
  let final: OpOcc;
  if (await followLive(lcm, opOccId, opts, progress, finishing.after ?? 0, deadline)) {
    final = await lcm.getOpOcc(opOccId);
  } else {
    try {
      final = await followOpOcc(lcm, opOccId, {
        timeoutSeconds: timeout,
        onUpdate: (o, changed) => progress.update(o, changed),
        onTick: () => progress.tick(),
      });
    } finally {
      progress.done();
    }
  }
  const ok = (finishing.success ?? ['COMPLETED']).includes(final.operationState);
  emit(opts.json, final, () => {
    say(`${final.operation} ${final.id}: ${final.operationState} after ${progress.elapsed()}`);
    if (!ok && final.error) for (const line of errorLines(final.error)) say(line);
    const next = !ok && nextSteps(lcm, final);
    if (next) say(`next: ${next}`);
  });
  if (!ok) {
    const why = final.error?.detail ?? final.error?.title;
    throw new CliError(
      `${final.operation} ${final.id} ended ${final.operationState}${why ? `: ${oneLine(why)}` : ''}`,
    );
  }
}
