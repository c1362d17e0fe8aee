/**
 * A file sent to Bosun with its progress: fetch cannot report upload progress, XMLHttpRequest
 * can. Same rules as every call: the Version header, the bearer token, a ProblemDetails thrown
 * for a failure.
 */
import { ApiProblem, problemOf } from './problem.ts';
import { authorization } from './session.ts';
import { versionFor } from './versions.ts';

export interface UploadProgress {
  loaded: number;
  total: number;
}

export async function uploadFile(
  path: string,
  file: Blob,
  contentType: string,
  onProgress: (progress: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const auth = await authorization();
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', path);
    xhr.withCredentials = false;
    const version = versionFor(path);
    if (version) xhr.setRequestHeader('Version', version);
    if (auth) xhr.setRequestHeader('Authorization', auth);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) =>
      onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress({ loaded: file.size, total: file.size });
        resolve();
        return;
      }
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: shown as text.
      }
      reject(problemOf(xhr.status, xhr.statusText, body));
    };
    xhr.onerror = () =>
      reject(
        new ApiProblem({
          status: 0,
          title: 'No answer',
          detail: 'The upload was cut off: is Bosun reachable?',
        }),
      );
    xhr.onabort = () =>
      reject(new ApiProblem({ status: 0, title: 'Cancelled', detail: 'The upload was cancelled.' }));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}
