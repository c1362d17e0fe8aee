/** A state shown as a coloured word; the tone says good, busy, bad or neutral at a glance. */
export type Tone = 'ok' | 'busy' | 'bad' | 'neutral' | 'off';

export function Badge(props: { tone: Tone; children: string; title?: string }) {
  return (
    <span class={`badge badge-${props.tone}`} title={props.title}>
      {props.children}
    </span>
  );
}
