/**
 * An op occ's timeline events as the lines `--wait` prints live and `bosun op show --timeline`
 * after the fact: the time since the first event, then what happened — states in capitals, steps
 * with their duration, a management driver's phases indented under its hook and its output lines
 * under them, zones tried, the error's detail.
 */
import type { OpEvent } from '../api-client/timeline.ts';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function what(e: OpEvent): string {
  switch (e.kind) {
    case 'state':
      return e.state;
    case 'step': {
      const name = e.hook ? `${e.step} ${e.hook}` : e.step;
      if (e.status === 'started') return `${name} …`;
      const took = e.durationMs !== undefined ? ` (${seconds(e.durationMs)})` : '';
      return e.status === 'finished'
        ? `${name} done${took}`
        : `${name} failed${took}: ${oneLine(e.detail ?? '')}`;
    }
    case 'driver': {
      const where = e.vnfcId ? ` [${e.vnfcId}]` : '';
      if (e.status === 'started') return `  ${e.phase}${where} …`;
      const took = e.durationMs !== undefined ? ` (${seconds(e.durationMs)})` : '';
      return e.status === 'finished'
        ? `  ${e.phase}${where} done${took}`
        : `  ${e.phase}${where} failed${took}: ${oneLine(e.detail ?? '')}`;
    }
    case 'output':
      return `    ${e.stream === 'stderr' ? '!' : '|'} ${e.line}`;
    case 'placement': {
      const next = e.stopped
        ? `stopped: ${e.stopped}`
        : e.next.map((n) => `${n.vduId} (${n.vnfcId}) to ${n.zone}`).join(', ');
      return `zone ${e.zone} has no room (${oneLine(e.reason)}) → ${next}`;
    }
    case 'error':
      return `error: ${oneLine(String(e.error.detail ?? e.error.title ?? ''))}`;
    case 'truncated':
      return `  ${e.detail}`;
  }
}

/** The line of `event`, timed from `start` (the first event's time, in ms since the epoch). */
export function timelineLine(event: OpEvent, start: number): string {
  const at = Date.parse(event.at) - start;
  return `${`+${seconds(Math.max(at, 0))}`.padStart(9)}  ${what(event)}`;
}
