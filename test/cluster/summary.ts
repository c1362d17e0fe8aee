/** The one line each cluster fault test prints, so that its counts can be reported and compared. */
import type { LoadReport } from './load.ts';
import type { NotificationCheck } from './notifications.ts';

export function summary(
  name: string,
  faults: Record<string, number | string>,
  report: LoadReport,
  notes: NotificationCheck,
): string {
  const states = new Map<string, number>();
  for (const op of report.opOccs.values()) states.set(op.state, (states.get(op.state) ?? 0) + 1);
  const failures = [...report.failures].map(([k, n]) => `${k} ×${n}`).join('; ') || 'none';
  return [
    `[cluster] ${name}:`,
    Object.entries(faults)
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
    `requests=${report.requests} failedRequests={${failures}}`,
    `opOccs=${report.opOccs.size} ${JSON.stringify(Object.fromEntries(states))} retried=${report.retried.size} restarted=${report.restarted} unfinished=${report.unfinished.length}`,
    `packages=${JSON.stringify(report.packages)}`,
    `notifications received=${notes.received} distinct=${notes.distinct} redelivered=${notes.redelivered} missing=${notes.missing.length} doubled=${notes.doubled.length}`,
  ].join(' ');
}
