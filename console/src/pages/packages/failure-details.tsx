/**
 * Why onboarding failed: Bosun's detail, then every problem with its code and `file:line`, and
 * the package lines around each (the API keeps them with the failure, the package itself being
 * gone), the offending line marked.
 */
import type { VnfPkgInfo } from '../../api/sol/packages.ts';

export interface Diagnostic {
  code: string;
  severity: 'error' | 'warning';
  message: string;
  file?: string;
  line?: number;
  column?: number;
  excerpt?: { firstLine: number; lines: string[] };
}

function where(d: Diagnostic): string | undefined {
  if (!d.file) return undefined;
  return [d.file, d.line, d.line && d.column].filter(Boolean).join(':');
}

function Excerpt(props: { d: Diagnostic }) {
  const { excerpt, line } = props.d;
  if (!excerpt) return null;
  return (
    <pre
      class="source"
      title={`Lines ${excerpt.firstLine} to ${excerpt.firstLine + excerpt.lines.length - 1} of ${props.d.file}`}
    >
      {excerpt.lines.map((text, i) => {
        const n = excerpt.firstLine + i;
        return (
          <span key={n} class={n === line ? 'line hit' : 'line'}>
            <span class="num">{n}</span>
            {text || ' '}
          </span>
        );
      })}
    </pre>
  );
}

export function FailureDetails(props: { pkg: VnfPkgInfo }) {
  const failure = props.pkg.onboardingFailureDetails;
  if (!failure) return null;
  const diagnostics = (Array.isArray(failure.diagnostics) ? failure.diagnostics : []) as Diagnostic[];
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const warnings = diagnostics.filter((d) => d.severity !== 'error');
  return (
    <section class="card failure" aria-labelledby="failure-heading">
      <h2 id="failure-heading">Onboarding failed</h2>
      <p class="problem-detail">{failure.detail}</p>
      {[...errors, ...warnings].length > 0 && (
        <ul class="diagnostics">
          {[...errors, ...warnings].map((d, i) => (
            <li key={`${d.code}-${i}`} class={d.severity}>
              <span class={`badge badge-${d.severity === 'error' ? 'bad' : 'off'}`}>{d.severity}</span>
              {where(d) && <code class="where">{where(d)}</code>} <code>{d.code}</code> {d.message}
              <Excerpt d={d} />
            </li>
          ))}
        </ul>
      )}
      <p class="muted">Correct the package and upload it again below.</p>
    </section>
  );
}
