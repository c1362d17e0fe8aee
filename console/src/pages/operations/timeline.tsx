/** An op occ's timeline as an ordered list: one line per event, its time and a mark of its tone. */
import './timeline.css';
import { describeEvent, type TimelineEvent } from './timeline-model.ts';

const MARKS = { info: '•', ok: '✓', fail: '✗', warn: '!', output: '›' } as const;

export function Timeline({ events }: { events: readonly TimelineEvent[] }) {
  if (events.length === 0) return <p class="muted">No event yet.</p>;
  return (
    <ol class="timeline" aria-label="Operation timeline">
      {events.map((event) => {
        const line = describeEvent(event);
        return (
          <li key={line.seq} class={`tone-${line.tone}`} data-kind={event.kind}>
            <span class="mark" aria-hidden="true">
              {MARKS[line.tone]}
            </span>
            <time dateTime={line.at}>{line.at.slice(11, 23)}</time> <span class="text">{line.text}</span>
            {line.more && <div class="more">{line.more}</div>}
          </li>
        );
      })}
    </ol>
  );
}
