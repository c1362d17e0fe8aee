/**
 * What a running hook reports while it works, for the op occ's live timeline: the phases of a
 * built-in driver (connecting to a node, running a command) and the lines it or a package script
 * writes. The engine gives one per hook run; without one (a test, a tool) nothing is reported.
 */

export type OutputStream = 'stdout' | 'stderr';

export interface HookProgress {
  /** A phase started; the returned function ends it (with the error when it failed). */
  phase(name: string, vnfcId?: string): (err?: unknown) => void;
  /** One line of output (without its line break). */
  line(stream: OutputStream, text: string, vnfcId?: string): void;
}

/** Reports nothing. */
export const NO_PROGRESS: HookProgress = { phase: () => () => {}, line: () => {} };

/** Runs `work` as phase `name`: started, then finished or failed with the error. */
export async function inPhase<T>(
  progress: HookProgress,
  name: string,
  vnfcId: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const end = progress.phase(name, vnfcId);
  try {
    const value = await work();
    end();
    return value;
  } catch (err) {
    end(err);
    throw err;
  }
}

/**
 * Splits chunks of a stream into lines for `progress` (a partial line waits for its end, or for
 * `end()`); at most `maxLine` characters a line, so a stream without line breaks still reports.
 */
export function lineSplitter(
  emit: (line: string) => void,
  maxLine = 2048,
): { push(chunk: Buffer | string): void; end(): void } {
  let partial = '';
  return {
    push(chunk) {
      partial += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      let at = partial.indexOf('\n');
      while (at >= 0) {
        emit(partial.slice(0, at).replace(/\r$/, ''));
        partial = partial.slice(at + 1);
        at = partial.indexOf('\n');
      }
      while (partial.length > maxLine) {
        emit(partial.slice(0, maxLine));
        partial = partial.slice(maxLine);
      }
    },
    end() {
      if (partial) emit(partial.replace(/\r$/, ''));
      partial = '';
    },
  };
}
