/** An op occ's state as a badge: done, running, failed, rolled back, each its tone. */
import { Badge, type Tone } from '../../components/badge.tsx';

const TONES: Record<string, Tone> = {
  STARTING: 'busy',
  PROCESSING: 'busy',
  ROLLING_BACK: 'busy',
  COMPLETED: 'ok',
  FAILED_TEMP: 'bad',
  FAILED: 'bad',
  ROLLED_BACK: 'off',
};

export function OpStateBadge({ state }: { state: string }) {
  return <Badge tone={TONES[state] ?? 'neutral'}>{state}</Badge>;
}
