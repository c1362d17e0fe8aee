/**
 * Upload of a VNF package zip: the package resource is created, the file sent with a progress
 * bar, then the package's page follows the onboarding. A failure at any step shows Bosun's
 * ProblemDetails; a package created before a failed send stays, ready for another upload.
 */
import { useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { ApiProblem, asProblem } from '../../api/problem.ts';
import { PACKAGES_PATH, type VnfPkgInfo } from '../../api/sol/packages.ts';
import { type UploadProgress, uploadFile } from '../../api/upload.ts';
import { bytes } from '../../components/format.ts';
import { ProblemBox } from '../../components/problem-box.tsx';
import { navigate } from '../../router.tsx';

/** Sends `file` as the content of package `id`, reporting progress. */
export function sendPackage(id: string, file: File, onProgress: (p: UploadProgress) => void): Promise<void> {
  return uploadFile(
    `${PACKAGES_PATH}/${encodeURIComponent(id)}/package_content`,
    file,
    'application/zip',
    onProgress,
  );
}

export function UploadProgressBar(props: { progress: UploadProgress }) {
  const { loaded, total } = props.progress;
  const percent = total ? Math.floor((loaded / total) * 100) : 0;
  return (
    <div class="upload-progress">
      <progress max={100} value={percent} aria-label="Upload progress" />
      <span>
        {percent}% — {bytes(loaded)} of {bytes(total)}
      </span>
    </div>
  );
}

export function UploadPanel(props: { onUploaded?: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | undefined>();
  const [progress, setProgress] = useState<UploadProgress | undefined>();
  const [error, setError] = useState<ApiProblem | undefined>();
  const busy = progress !== undefined && !error;

  const upload = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    setError(undefined);
    setProgress({ loaded: 0, total: file.size });
    let id: string | undefined;
    try {
      const created = await api<VnfPkgInfo>(PACKAGES_PATH, {
        method: 'POST',
        json: { userDefinedData: { uploadedFileName: file.name.slice(0, 255) } },
      });
      id = created.body.id;
      await sendPackage(id, file, setProgress);
      props.onUploaded?.();
      navigate(`/packages/${id}`);
    } catch (err) {
      const problem = asProblem(err);
      setError(
        id
          ? new ApiProblem({
              ...problem.problem,
              detail: `${problem.problem.detail} (package ${id} was created and waits for its content: upload again from its page, or delete it.)`,
            })
          : problem,
      );
    }
  };

  return (
    <form class="card" onSubmit={upload} aria-label="Upload a VNF package">
      <h2>Upload a VNF package</h2>
      <label>
        Package file (a SOL004 CSAR zip)
        <input
          ref={input}
          type="file"
          name="package"
          accept=".zip,.csar,application/zip"
          disabled={busy}
          onChange={(e) => {
            setFile(e.currentTarget.files?.[0]);
            setProgress(undefined);
            setError(undefined);
          }}
        />
      </label>
      {progress && <UploadProgressBar progress={progress} />}
      {error && <ProblemBox error={error} />}
      <button type="submit" class="primary" disabled={!file || busy}>
        {busy ? 'Uploading…' : 'Upload'}
      </button>
    </form>
  );
}
