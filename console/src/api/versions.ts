/**
 * The Version header of each API the console calls (SOL013 §4.2: required by the v3.x APIs).
 * Bosun's own /bosun/v1 admin API takes none.
 */
const VERSIONS: ReadonlyArray<readonly [prefix: string, version: string]> = [
  ['/vnfpkgm/v1/', '1.3.0'],
  ['/vnfpkgm/v2/', '2.1.0'],
  ['/vnflcm/v1/', '1.3.0'],
  ['/vnflcm/v2/', '2.0.0'],
  ['/vnffm/v1/', '1.3.0'],
  ['/vnfpm/v2/', '2.1.0'],
];

export function versionFor(path: string): string | undefined {
  return VERSIONS.find(([prefix]) => path.startsWith(prefix))?.[1];
}
