/**
 * Scale to a level: one of the flavour's instantiation levels, or a target level for each
 * aspect chosen between 0 and its maximum (the current one preselected).
 */
import { useState } from 'preact/hooks';
import { aspectsOf } from './scale.tsx';
import type { OperationFormProps } from './types.ts';

export function ScaleToLevelForm(props: OperationFormProps) {
  const aspects = aspectsOf(props);
  const levels = props.flavour?.instantiationLevels?.levels ?? [];
  const [mode, setMode] = useState<'aspects' | 'level'>('aspects');
  const [targets, setTargets] = useState<Record<string, number>>(
    Object.fromEntries(aspects.map((a) => [a.id, a.current])),
  );
  const [levelId, setLevelId] = useState(levels[0]?.id ?? '');
  if (!aspects.length) return <p class="notice">The instance's flavour has no scaling aspect.</p>;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.submit(
          mode === 'level'
            ? { instantiationLevelId: levelId }
            : { scaleInfo: aspects.map((a) => ({ aspectId: a.id, scaleLevel: targets[a.id] ?? a.current })) },
        );
      }}
    >
      {levels.length > 0 && (
        <fieldset>
          <legend>Target</legend>
          <label class="inline">
            <input
              type="radio"
              name="mode"
              checked={mode === 'aspects'}
              onChange={() => setMode('aspects')}
            />
            A level per aspect
          </label>
          <label class="inline">
            <input type="radio" name="mode" checked={mode === 'level'} onChange={() => setMode('level')} />
            An instantiation level
          </label>
        </fieldset>
      )}
      {mode === 'aspects' ? (
        aspects.map((a) => (
          <label key={a.id}>
            {a.id} (now {a.current}, at most {a.max})
            <select
              name={`level-${a.id}`}
              value={String(targets[a.id] ?? a.current)}
              onChange={(e) => setTargets({ ...targets, [a.id]: Number(e.currentTarget.value) })}
            >
              {Array.from({ length: a.max + 1 }, (_, n) => (
                <option key={n} value={String(n)}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        ))
      ) : (
        <label>
          Instantiation level
          <select
            name="instantiationLevelId"
            value={levelId}
            onChange={(e) => setLevelId(e.currentTarget.value)}
          >
            {levels.map((l) => (
              <option key={l.id} value={l.id}>
                {l.id}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="submit" class="primary" disabled={props.busy}>
        Scale to level
      </button>
    </form>
  );
}
