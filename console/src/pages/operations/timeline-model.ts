/**
 * The op occ timeline as the console shows it: the events the API sends (GET …/timeline and the
 * stream), merged by their sequence number so a resumed stream or a reload never shows one
 * twice, and each turned into one line of text with a tone (what colour and mark it gets).
 */

export interface TimelineEvent {
  seq: number;
  at: string;
  kind: string;
  [field: string]: unknown;
}

export type Tone = 'info' | 'ok' | 'fail' | 'warn' | 'output';

export interface TimelineLine {
  seq: number;
  at: string;
  tone: Tone;
  text: string;
  /** Longer text shown under the line (an error's detail, a reselection's notes). */
  more?: string;
}

/** Adds events to a timeline kept in order, dropping any already there. */
export function mergeEvents(
  known: readonly TimelineEvent[],
  added: readonly TimelineEvent[],
): TimelineEvent[] {
  const seen = new Set(known.map((e) => e.seq));
  const fresh = added.filter((e) => !seen.has(e.seq));
  if (fresh.length === 0) return known as TimelineEvent[];
  return [...known, ...fresh].sort((a, b) => a.seq - b.seq);
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const ms = (value: unknown) => (typeof value === 'number' ? ` in ${formatMs(value)}` : '');

export function formatMs(value: number): string {
  return value < 1000 ? `${value} ms` : `${(value / 1000).toFixed(1)} s`;
}

const STATE_TONES: Record<string, Tone> = {
  COMPLETED: 'ok',
  FAILED_TEMP: 'fail',
  FAILED: 'fail',
  ROLLED_BACK: 'warn',
  ROLLING_BACK: 'warn',
};

const STATUS_TONES: Record<string, Tone> = { started: 'info', finished: 'ok', failed: 'fail' };

type Describe = (event: TimelineEvent) => Omit<TimelineLine, 'seq' | 'at'>;

/** One describer per event kind; a kind the console does not know yet is shown as its JSON. */
const DESCRIBE: Record<string, Describe> = {
  state: (e) => ({ tone: STATE_TONES[str(e.state) ?? ''] ?? 'info', text: `Operation ${str(e.state)}` }),
  step: (e) => ({
    tone: STATUS_TONES[str(e.status) ?? ''] ?? 'info',
    text: `Step ${str(e.step)}${e.hook ? ` (${str(e.hook)})` : ''} ${str(e.status)}${ms(e.durationMs)}`,
    more: str(e.detail),
  }),
  driver: (e) => ({
    tone: STATUS_TONES[str(e.status) ?? ''] ?? 'info',
    text: `${str(e.hook)}: ${str(e.phase)} ${str(e.status)}${ms(e.durationMs)}`,
    more: str(e.detail),
  }),
  output: (e) => ({
    tone: 'output',
    text: `${str(e.vnfcId) ? `${str(e.vnfcId)} ` : ''}${str(e.stream)}: ${str(e.line)}`,
  }),
  placement: (e) => {
    const next = Array.isArray(e.next) ? (e.next as { vnfcId: string; zone: string }[]) : [];
    const moved = next.length
      ? `; ${next.map((n) => `${n.vnfcId} → ${n.zone}`).join(', ')}`
      : `; stopped${str(e.stopped) ? `: ${str(e.stopped)}` : ''}`;
    const notes = Array.isArray(e.notes) ? (e.notes as string[]).join(' ') : undefined;
    return { tone: 'warn', text: `Zone ${str(e.zone)} had no room (${str(e.reason)})${moved}`, more: notes };
  },
  error: (e) => {
    const error = (e.error ?? {}) as { title?: string; detail?: string; status?: number };
    return {
      tone: 'fail',
      text: `Error${error.status ? ` ${error.status}` : ''}: ${error.title ?? ''}`,
      more: error.detail,
    };
  },
  truncated: (e) => ({ tone: 'warn', text: str(e.detail) ?? 'Output truncated' }),
};

export function describeEvent(event: TimelineEvent): TimelineLine {
  const describe = DESCRIBE[event.kind];
  const line = describe
    ? describe(event)
    : { tone: 'info' as const, text: `${event.kind}: ${JSON.stringify(event)}` };
  return { seq: event.seq, at: event.at, ...line };
}
