/**
 * The registry of SOL APIs Bosun serves: one entry per API major version. Later capabilities
 * only add versions here; the api_versions resources, the Version header check and the
 * response Version header all read this table.
 */
export type ApiName = 'vnfpkgm' | 'vnflcm' | 'vnffm' | 'vnfpm';

export interface ApiMajor {
  api: ApiName;
  major: `v${number}`;
  /** Supported API versions (MAJOR.MINOR.PATCH), oldest first; the last is the current one. */
  versions: readonly string[];
  /** The SOL documents' generation: v3.x APIs require the Version header, v2.6.1 ones only validate it. */
  versionHeader: 'required' | 'optional';
  deprecated?: readonly string[];
  spec: string;
}

export const API_REGISTRY: readonly ApiMajor[] = [
  { api: 'vnfpkgm', major: 'v1', versions: ['1.3.0'], versionHeader: 'optional', spec: 'SOL005 v2.6.1' },
  { api: 'vnfpkgm', major: 'v2', versions: ['2.1.0'], versionHeader: 'required', spec: 'SOL005 v3.3.1' },
  {
    api: 'vnflcm',
    major: 'v1',
    versions: ['1.3.0'],
    versionHeader: 'optional',
    spec: 'SOL002/SOL003 v2.6.1',
  },
  {
    api: 'vnflcm',
    major: 'v2',
    versions: ['2.0.0'],
    versionHeader: 'required',
    spec: 'SOL002/SOL003 v3.3.1',
  },
  { api: 'vnffm', major: 'v1', versions: ['1.3.0'], versionHeader: 'required', spec: 'SOL002/SOL003 v3.3.1' },
  { api: 'vnfpm', major: 'v2', versions: ['2.1.0'], versionHeader: 'required', spec: 'SOL002/SOL003 v3.3.1' },
];

export const API_NAMES: readonly ApiName[] = [...new Set(API_REGISTRY.map((m) => m.api))];

export function majorsOf(api: ApiName): ApiMajor[] {
  return API_REGISTRY.filter((m) => m.api === api);
}

export function findMajor(api: ApiName, major: string): ApiMajor | undefined {
  return API_REGISTRY.find((m) => m.api === api && m.major === major);
}

export const currentVersion = (m: ApiMajor) => m.versions[m.versions.length - 1];

export interface ApiVersionInformation {
  uriPrefix: string;
  apiVersions: { version: string; isDeprecated: boolean; retirementDate?: string }[];
}

/** SOL013 ApiVersionInformation for `/{api}` (every served major) or `/{api}/{major}`. */
export function versionInformation(
  api: ApiName,
  major?: string,
  served: readonly ApiMajor[] = API_REGISTRY,
): ApiVersionInformation {
  const majors = served.filter((m) => m.api === api && (major === undefined || m.major === major));
  return {
    uriPrefix: major ? `/${api}/${major}` : `/${api}`,
    apiVersions: majors.flatMap((m) =>
      m.versions.map((version) => ({ version, isDeprecated: m.deprecated?.includes(version) ?? false })),
    ),
  };
}
