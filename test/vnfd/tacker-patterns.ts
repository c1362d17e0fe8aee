/**
 * Packages Tacker onboards that Bosun used to refuse, each made from a shared sample by one edit
 * reproducing a pattern of real Tacker packages: a management driver referenced by its path on
 * the Tacker host, a step delta no deltas policy defines, a substitution_mappings flavour_id
 * outside the type's valid_values, and a data type declared under node_types.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleVariant } from '../http/vnflcm/sample-package.ts';

export const PATTERN_BASE = 'sol_v2_common__basic_lcms_min.zip';
const BASE_VNFD_ID = '437ba870-af38-52c1-ad31-a591f4419f69';
const DF = 'Definitions/v2_sample2_df_simple.yaml';
export const TYPES = 'Definitions/v2_sample2_types.yaml';

/** The driver path Tacker's own VNFDs give (a file of the Tacker installation). */
export const HOST_DRIVER = '/opt/stack/tacker/tacker/vnfm/mgmt_drivers/vnflcm_noop.py';

function replaceOnce(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`Tacker pattern: ${JSON.stringify(from)} not found`);
  return text.replace(from, to);
}

export interface TackerPattern {
  /** The diagnostic code Bosun reports it with. */
  code: string;
  edit: Record<string, (text: string) => string>;
}

export const TACKER_PATTERNS = {
  hostPathArtifact: {
    code: 'TOSCA_ARTIFACT_HOST_PATH',
    edit: {
      [DF]: (t) => replaceOnce(t, 'file: ../Scripts/sample_script.py', `file: ${HOST_DRIVER}`),
    },
  },
  undefinedStepDelta: {
    code: 'VNFD_SCALING_DELTA_UNKNOWN',
    edit: {
      [DF]: (t) =>
        replaceOnce(
          t,
          '              step_deltas:\n                - delta_1\n',
          '              step_deltas:\n                - delta_missing\n',
        ),
    },
  },
  mappingOutsideConstraints: {
    code: 'TOSCA_MAPPING_CONSTRAINT',
    edit: {
      [DF]: (t) =>
        replaceOnce(
          t,
          '    properties:\n      flavour_id: simple\n',
          '    properties:\n      flavour_id: complex\n',
        ),
    },
  },
  dataTypeInNodeTypes: {
    code: 'TOSCA_DATA_TYPE_IN_NODE_TYPES',
    edit: {
      // The type is then used as a data type: a VNF property with a default of that type.
      [TYPES]: (t) =>
        replaceOnce(
          replaceOnce(
            t,
            'node_types:\n',
            'node_types:\n  company.datatypes.Tuning:\n    derived_from: tosca.datatypes.Root\n    properties:\n      workers:\n        type: integer\n        constraints: [ greater_or_equal: 1 ]\n',
          ),
          '      flavour_description:\n        type: string\n        default: "flavour"\n',
          '      flavour_description:\n        type: string\n        default: "flavour"\n      tuning:\n        type: company.datatypes.Tuning\n        required: false\n        default: { workers: 2 }\n',
        ),
    },
  },
} satisfies Record<string, TackerPattern>;

export type PatternName = keyof typeof TACKER_PATTERNS;

type Edits = Record<string, (text: string) => string>;

/** The pattern's package as a zip with a fresh vnfdId; `then` edits files after the pattern. */
export function patternPackage(
  name: PatternName,
  then: Edits = {},
): Promise<{ zip: Buffer; vnfdId: string }> {
  const edit: Edits = { ...TACKER_PATTERNS[name].edit };
  for (const [file, next] of Object.entries(then)) {
    const first = edit[file];
    edit[file] = first ? (t) => next(first(t)) : next;
  }
  return sampleVariant(PATTERN_BASE, { vnfdId: BASE_VNFD_ID, edit });
}

/** The pattern's package written to a temp file, for readers that take a path. */
export async function patternFile(
  name: PatternName,
  then: Edits = {},
): Promise<{ path: string; vnfdId: string; cleanup: () => Promise<void> }> {
  const { zip, vnfdId } = await patternPackage(name, then);
  const dir = await mkdtemp(join(tmpdir(), 'bosun-tacker-pattern-'));
  const path = join(dir, `${name}.zip`);
  await writeFile(path, zip);
  return { path, vnfdId, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
