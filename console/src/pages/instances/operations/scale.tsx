/**
 * Scale: the flavour's aspects with their current and maximum level; out and in offer only the
 * steps the aspect has left (out up to its maximum, in down to 0).
 */
import { useState } from 'preact/hooks';
import type { OperationFormProps } from './types.ts';

interface AspectLevel {
  id: string;
  current: number;
  max: number;
  description?: string;
}

/** The aspects as the instance reports them, described from the VNFD where it can be read. */
export function aspectsOf(props: Pick<OperationFormProps, 'info' | 'flavour'>): AspectLevel[] {
  const status = props.info?.scaleStatus ?? [];
  const max = new Map((props.info?.maxScaleLevels ?? []).map((s) => [s.aspectId, s.scaleLevel]));
  const fromVnfd = new Map((props.flavour?.scalingAspects ?? []).map((a) => [a.id, a]));
  const ids = new Set([...status.map((s) => s.aspectId), ...fromVnfd.keys()]);
  return [...ids].map((id) => ({
    id,
    current: status.find((s) => s.aspectId === id)?.scaleLevel ?? 0,
    max: max.get(id) ?? fromVnfd.get(id)?.maxScaleLevel ?? 0,
    description: fromVnfd.get(id)?.description,
  }));
}

export function ScaleForm(props: OperationFormProps) {
  const aspects = aspectsOf(props);
  const [aspectId, setAspectId] = useState(aspects[0]?.id ?? '');
  const [type, setType] = useState<'SCALE_OUT' | 'SCALE_IN'>('SCALE_OUT');
  const [steps, setSteps] = useState(1);
  if (!aspects.length) return <p class="notice">The instance's flavour has no scaling aspect.</p>;
  const aspect = aspects.find((a) => a.id === aspectId) ?? aspects[0];
  const room = type === 'SCALE_OUT' ? aspect.max - aspect.current : aspect.current;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.submit({ type, aspectId: aspect.id, numberOfSteps: Math.min(steps, room) });
      }}
    >
      <label>
        Aspect
        <select name="aspectId" value={aspect.id} onChange={(e) => setAspectId(e.currentTarget.value)}>
          {aspects.map((a) => (
            <option key={a.id} value={a.id}>
              {a.id}: level {a.current} of {a.max}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>Direction</legend>
        {(['SCALE_OUT', 'SCALE_IN'] as const).map((t) => (
          <label key={t} class="inline">
            <input type="radio" name="type" value={t} checked={type === t} onChange={() => setType(t)} />
            {t === 'SCALE_OUT' ? 'Out (add)' : 'In (remove)'}
          </label>
        ))}
      </fieldset>
      {room > 0 ? (
        <label>
          Steps (at most {room})
          <input
            type="number"
            name="numberOfSteps"
            min={1}
            max={room}
            value={Math.min(steps, room)}
            onInput={(e) => setSteps(Math.max(1, Number(e.currentTarget.value) || 1))}
          />
        </label>
      ) : (
        <p class="notice">
          {type === 'SCALE_OUT'
            ? `${aspect.id} is at its maximum level (${aspect.max}).`
            : `${aspect.id} is at level 0: nothing to remove.`}
        </p>
      )}
      <button type="submit" class="primary" disabled={props.busy || room < 1}>
        Scale {type === 'SCALE_OUT' ? 'out' : 'in'}
      </button>
    </form>
  );
}
