/** A hook's progress (drivers/mgmt/hook-progress.ts) written to the op occ's timeline as driver and output events. */
import type { HookProgress } from '../../drivers/mgmt/hook-progress.ts';
import type { TimelineWriter } from './writer.ts';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function timelineProgress(timeline: TimelineWriter, hook: string): HookProgress {
  return {
    phase(phase, vnfcId) {
      const started = Date.now();
      const where = vnfcId ? { vnfcId } : {};
      timeline.emit({ kind: 'driver', hook, phase, status: 'started', ...where });
      let ended = false;
      return (err) => {
        if (ended) return;
        ended = true;
        timeline.emit({
          kind: 'driver',
          hook,
          phase,
          status: err === undefined ? 'finished' : 'failed',
          ...where,
          durationMs: Date.now() - started,
          ...(err === undefined ? {} : { detail: message(err) }),
        });
      };
    },
    line(stream, line, vnfcId) {
      timeline.emit({ kind: 'output', hook, stream, line, ...(vnfcId ? { vnfcId } : {}) });
    },
  };
}
