/**
 * One VNF package: its states and onboarding steps (followed while they change), why onboarding
 * failed, a new upload while it waits for content, enable/disable/delete, the VNFD viewer and
 * the package's files.
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, asProblem } from '../../api/problem.ts';
import { isOnboarding, PACKAGES_PATH, packageBadges, type VnfPkgInfo } from '../../api/sol/packages.ts';
import { type VnfdModel, vnfdModelPath } from '../../api/sol/vnfd-model.ts';
import type { UploadProgress } from '../../api/upload.ts';
import { Badge } from '../../components/badge.tsx';
import { ProblemBox } from '../../components/problem-box.tsx';
import { useApi, usePolling } from '../../components/use-api.ts';
import type { PageProps } from '../routes.ts';
import { Downloads } from './downloads.tsx';
import { FailureDetails } from './failure-details.tsx';
import { OnboardingSteps } from './onboarding-steps.tsx';
import { PackageActions } from './package-actions.tsx';
import { sendPackage, UploadProgressBar } from './upload-panel.tsx';
import { VnfdViewer } from './vnfd-viewer.tsx';

const POLL_MS = 1000;

function UploadAgain(props: { pkg: VnfPkgInfo; onUploaded: () => void }) {
  const [file, setFile] = useState<File | undefined>();
  const [progress, setProgress] = useState<UploadProgress | undefined>();
  const [error, setError] = useState<ApiProblem | undefined>();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    setError(undefined);
    setProgress({ loaded: 0, total: file.size });
    try {
      await sendPackage(props.pkg.id, file, setProgress);
      props.onUploaded();
    } catch (err) {
      setError(asProblem(err));
    }
  };
  return (
    <form class="card" onSubmit={submit} aria-label="Upload the package content">
      <h2>Upload the content</h2>
      <label>
        Package file (a SOL004 CSAR zip)
        <input
          type="file"
          accept=".zip,.csar,application/zip"
          onChange={(e) => setFile(e.currentTarget.files?.[0])}
        />
      </label>
      {progress && <UploadProgressBar progress={progress} />}
      {error && <ProblemBox error={error} />}
      <button type="submit" class="primary" disabled={!file || (progress !== undefined && !error)}>
        Upload
      </button>
    </form>
  );
}

function Vnfd(props: { pkg: VnfPkgInfo }) {
  const model = useApi<VnfdModel>(vnfdModelPath(props.pkg.id));
  if (model.error) return <ProblemBox error={model.error} />;
  if (!model.data) return <p class="muted">Loading the VNFD…</p>;
  return <VnfdViewer model={model.data} />;
}

export function PackageDetailPage({ params }: PageProps) {
  const pkg = useApi<VnfPkgInfo>(`${PACKAGES_PATH}/${encodeURIComponent(params.id)}`);
  const p = pkg.data;
  usePolling(p !== undefined && isOnboarding(p), POLL_MS, pkg.reload);
  if (pkg.error && !p) return <ProblemBox error={pkg.error} />;
  if (!p) return <p class="muted">Loading…</p>;
  const uploadedFile = p.userDefinedData?.uploadedFileName;
  return (
    <section>
      <h1>{p.vnfProductName ?? `Package ${p.id}`}</h1>
      <p>
        {packageBadges(p).map((b) => (
          <Badge key={b.label} tone={b.tone} title={b.title}>
            {b.label}
          </Badge>
        ))}
      </p>
      {pkg.error && <ProblemBox error={pkg.error} />}
      <PackageActions pkg={p} onChanged={pkg.reload} />
      <div class="grid-2">
        <dl class="facts card">
          <dt>Package id</dt>
          <dd>
            <code>{p.id}</code>
          </dd>
          <dt>VNFD id</dt>
          <dd>
            <code>{p.vnfdId ?? '—'}</code>
          </dd>
          <dt>Provider</dt>
          <dd>{p.vnfProvider ?? '—'}</dd>
          <dt>Software version</dt>
          <dd>{p.vnfSoftwareVersion ?? '—'}</dd>
          <dt>VNFD version</dt>
          <dd>{p.vnfdVersion ?? '—'}</dd>
          <dt>States</dt>
          <dd>
            {p.onboardingState}, {p.operationalState}, {p.usageState}
          </dd>
          {typeof uploadedFile === 'string' && (
            <>
              <dt>Uploaded file</dt>
              <dd>{uploadedFile}</dd>
            </>
          )}
          {p.checksum && (
            <>
              <dt>Checksum</dt>
              <dd>
                <code>
                  {p.checksum.algorithm} {p.checksum.hash}
                </code>
              </dd>
            </>
          )}
        </dl>
        <div class="card">
          <h2>Onboarding</h2>
          <OnboardingSteps pkg={p} />
        </div>
      </div>
      <FailureDetails pkg={p} />
      {(p.onboardingState === 'CREATED' || p.onboardingState === 'ERROR') && (
        <UploadAgain pkg={p} onUploaded={pkg.reload} />
      )}
      {p.onboardingState === 'ONBOARDED' && (
        <>
          <Vnfd pkg={p} />
          <Downloads pkg={p} />
        </>
      )}
    </section>
  );
}
