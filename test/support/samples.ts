/**
 * The shared Tacker sample packages: `shared/` sits beside the repository (CI clones main with
 * shared/ next to it); /work/shared is the developers' machines' copy.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const candidates = [
  new URL('../../../shared/samples/tacker', import.meta.url).pathname,
  '/work/shared/samples/tacker',
];

export const SAMPLES_DIR: string = (() => {
  const found = candidates.find((c) => existsSync(join(c, 'expected.json')));
  if (!found) throw new Error(`the shared sample packages are missing (looked in ${candidates.join(', ')})`);
  return found;
})();

export interface ExpectedSample {
  file: string;
  valid: boolean;
  vnfdId?: string;
  vnfProvider?: string;
  vnfProductName?: string;
  vnfSoftwareVersion?: string;
  vnfdVersion?: string;
  flavours?: string[];
  softwareImages?: Record<string, unknown>[];
  additionalArtifacts?: { artifactPath: string; checksum: { algorithm: string; hash: string } }[];
  entryDefinitions?: string;
  errorContains?: string;
  stage?: string;
}

export const EXPECTED_SAMPLES: ExpectedSample[] = JSON.parse(
  readFileSync(join(SAMPLES_DIR, 'expected.json'), 'utf8'),
);
