/**
 * The heal an alarm triggered: auto-heal writes each step on the alarm as a faultDetails entry
 * `auto-heal: heal <op occ id> of … started` (later `… heal <id> ended FAILED_TEMP: …`), so the
 * newest entry naming a heal is the one to link to.
 */
const HEAL = /^auto-heal: .*?\bheal ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/i;

export function healOf(faultDetails: readonly string[] | undefined): string | undefined {
  for (const detail of [...(faultDetails ?? [])].reverse()) {
    const found = HEAL.exec(detail);
    if (found) return found[1];
  }
  return undefined;
}

/** The auto-heal note itself (what the operator reads next to the link). */
export function healNote(faultDetails: readonly string[] | undefined): string | undefined {
  return faultDetails?.find((d) => d.startsWith('auto-heal: '))?.slice('auto-heal: '.length);
}
