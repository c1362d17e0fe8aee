/**
 * The files of an onboarded package: the whole package, its VNFD and each declared artifact,
 * downloaded with the caller's token (a plain link could not carry it).
 */
import { useState } from 'preact/hooks';
import { download } from '../../api/client.ts';
import { type ApiProblem, asProblem } from '../../api/problem.ts';
import { PACKAGES_PATH, type VnfPkgInfo } from '../../api/sol/packages.ts';
import { ProblemBox } from '../../components/problem-box.tsx';
import { Table } from '../../components/table.tsx';

const baseName = (path: string) => path.split('/').pop() || path;
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export function Downloads(props: { pkg: VnfPkgInfo }) {
  const { pkg } = props;
  const [error, setError] = useState<ApiProblem | undefined>();
  const root = `${PACKAGES_PATH}/${encodeURIComponent(pkg.id)}`;
  const get = (path: string, name: string) => async () => {
    setError(undefined);
    try {
      await download(path, name);
    } catch (err) {
      setError(asProblem(err));
    }
  };
  const artifacts = pkg.additionalArtifacts ?? [];
  return (
    <section class="card" aria-labelledby="downloads-heading">
      <h2 id="downloads-heading">Files</h2>
      {error && <ProblemBox error={error} onDismiss={() => setError(undefined)} />}
      <div class="toolbar">
        <button type="button" onClick={get(`${root}/package_content`, `${pkg.vnfProductName ?? pkg.id}.zip`)}>
          Download the package
        </button>
        <button type="button" onClick={get(`${root}/vnfd`, `${pkg.vnfdId ?? pkg.id}-vnfd.zip`)}>
          Download the VNFD
        </button>
      </div>
      {artifacts.length ? (
        <Table
          caption="Artifacts"
          columns={[
            { header: 'Artifact', cell: (a) => <code>{a.artifactPath}</code> },
            {
              header: 'Checksum',
              cell: (a) => (a.checksum ? `${a.checksum.algorithm} ${a.checksum.hash.slice(0, 16)}…` : '—'),
            },
            {
              header: 'Download',
              cell: (a) => (
                <button
                  type="button"
                  aria-label={`Download ${a.artifactPath}`}
                  onClick={get(`${root}/artifacts/${encodePath(a.artifactPath)}`, baseName(a.artifactPath))}
                >
                  Download
                </button>
              ),
            },
          ]}
          rows={artifacts}
          rowKey={(a) => a.artifactPath}
        />
      ) : (
        <p class="muted">The package declares no additional artifacts.</p>
      )}
    </section>
  );
}
