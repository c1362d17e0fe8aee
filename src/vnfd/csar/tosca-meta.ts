/**
 * TOSCA-Metadata/TOSCA.meta (SOL004 §4.2): the first block names the entry definitions and the
 * ETSI entries (manifest, change log, licences, certificate, tests); later blocks describe single
 * files (Name or Source, Content-Type, Algorithm, Hash), checked like manifest artifacts.
 */
import { setOwn } from '../../own-properties.ts';
import { Diagnostics } from '../diagnostics.ts';
import type { ArtifactEntry, ToscaMeta } from './csar-info.ts';
import { declaredArtifact, packagePath } from './manifest-artifact.ts';
import { entryOf, type MetaBlock, splitBlocks } from './meta-blocks.ts';
import type { PackageFiles } from './package-files.ts';

export const TOSCA_META_PATH = 'TOSCA-Metadata/TOSCA.meta';

/** First-block keys of SOL004, in their canonical spelling (matched case-insensitively). */
const FIRST_BLOCK_KEYS = [
  'TOSCA-Meta-File-Version',
  'CSAR-Version',
  'Created-By',
  'Entry-Definitions',
  'ETSI-Entry-Manifest',
  'ETSI-Entry-Change-Log',
  'ETSI-Entry-Licenses',
  'ETSI-Entry-Certificate',
  'ETSI-Entry-Tests',
  'Other-Definitions',
];
const PER_FILE_KEYS = ['Name', 'Source', 'Content-Type', 'Algorithm', 'Hash', 'Signature', 'Certificate'];
/** SOL004 requires them; Tacker does not, so their absence is only a warning. */
const EXPECTED_KEYS = ['TOSCA-Meta-File-Version', 'CSAR-Version', 'Created-By'];
/** Keys whose value is a file (or folder, for change log/licences/tests) that must exist. */
const FILE_KEYS = [
  'ETSI-Entry-Change-Log',
  'ETSI-Entry-Licenses',
  'ETSI-Entry-Certificate',
  'ETSI-Entry-Tests',
];

export interface ParsedToscaMeta {
  meta: ToscaMeta;
  /** Hashed per-file blocks, not yet verified. */
  artifacts: ArtifactEntry[];
  diagnostics: Diagnostics;
}

const canonical = (key: string, known: string[]) =>
  known.find((k) => k.toLowerCase() === key.toLowerCase()) ?? key;

/** A path names an existing file, or a folder holding files (licences and tests may be folders). */
function exists(files: PackageFiles, path: string): boolean {
  const clean = packagePath(path).replace(/\/+$/, '');
  return files.has(clean) || files.names.some((n) => n.startsWith(`${clean}/`));
}

export function parseToscaMeta(text: string, files: PackageFiles, file = TOSCA_META_PATH): ParsedToscaMeta {
  const diagnostics = new Diagnostics();
  const { blocks, malformed } = splitBlocks(text);
  for (const m of malformed) {
    diagnostics.error(
      'TOSCA_META_MALFORMED_LINE',
      `line is not "key: value": ${JSON.stringify(m.text.slice(0, 80))}`,
      { file, line: m.line },
    );
  }
  const meta: ToscaMeta = { keys: {}, fileBlocks: [] };
  const artifacts: ArtifactEntry[] = [];
  const isFileBlock = (b: MetaBlock) => Boolean(entryOf(b, 'Name') ?? entryOf(b, 'Source'));
  const first = blocks[0] && !isFileBlock(blocks[0]) ? blocks[0] : undefined;
  const lineOf = readFirstBlock(first, meta, file, diagnostics);
  checkFirstBlock(meta, lineOf, files, file, diagnostics);
  for (const block of first ? blocks.slice(1) : blocks) {
    const entry = readFileBlock(block, meta, files, file, diagnostics);
    if (entry) artifacts.push(entry);
  }
  return { meta, artifacts, diagnostics };
}

/** The first block's keys into `meta.keys` (unknown, duplicate and missing ones reported); their lines. */
function readFirstBlock(
  first: MetaBlock | undefined,
  meta: ToscaMeta,
  file: string,
  diagnostics: Diagnostics,
): Record<string, number> {
  const lineOf: Record<string, number> = {};
  for (const e of first?.entries ?? []) {
    const key = canonical(e.key, FIRST_BLOCK_KEYS);
    if (!FIRST_BLOCK_KEYS.includes(key)) {
      diagnostics.warning('TOSCA_META_UNKNOWN_KEY', `unknown TOSCA.meta key "${e.key}"`, {
        file,
        line: e.line,
      });
    }
    if (Object.hasOwn(meta.keys, key)) {
      diagnostics.error('TOSCA_META_DUPLICATE_KEY', `key "${key}" is given more than once`, {
        file,
        line: e.line,
      });
      continue;
    }
    setOwn(meta.keys, key, e.value);
    setOwn(lineOf, key, e.line);
  }
  for (const key of EXPECTED_KEYS) {
    if (!Object.hasOwn(meta.keys, key)) {
      diagnostics.warning('TOSCA_META_MISSING_KEY', `TOSCA.meta has no ${key} (SOL004 requires it)`, {
        file,
        line: first?.line,
      });
    }
  }
  return lineOf;
}

/** A per-file block into `meta.fileBlocks`; its artifact entry when it declares a hash. */
function readFileBlock(
  block: MetaBlock,
  meta: ToscaMeta,
  files: PackageFiles,
  file: string,
  diagnostics: Diagnostics,
): ArtifactEntry | undefined {
  const name = entryOf(block, 'Name') ?? entryOf(block, 'Source');
  const keys: Record<string, string> = {};
  for (const e of block.entries) setOwn(keys, canonical(e.key, PER_FILE_KEYS), e.value);
  const hashed = entryOf(block, 'Algorithm') ?? entryOf(block, 'Hash');
  if (name) meta.fileBlocks.push({ name: packagePath(name.value), keys, line: block.line });
  else if (!hashed) {
    diagnostics.warning(
      'TOSCA_META_BLOCK_WITHOUT_NAME',
      'a TOSCA.meta block after the first has no Name (or Source) and is ignored',
      { file, line: block.line },
    );
  }
  if (!hashed) return undefined;
  return declaredArtifact(
    {
      line: block.line,
      source: name,
      algorithm: entryOf(block, 'Algorithm'),
      hash: entryOf(block, 'Hash'),
      signature: entryOf(block, 'Signature'),
      certificate: entryOf(block, 'Certificate'),
    },
    file,
    files,
    diagnostics,
  );
}

function checkFirstBlock(
  meta: ToscaMeta,
  lineOf: Record<string, number>,
  files: PackageFiles,
  file: string,
  diagnostics: Diagnostics,
): void {
  const at = (key: string) => ({ file, line: lineOf[key] });
  const entry = meta.keys['Entry-Definitions'];
  if (!entry) {
    diagnostics.error(
      'TOSCA_META_NO_ENTRY_DEFINITIONS',
      'TOSCA.meta has no Entry-Definitions: the entry VNFD cannot be found',
      { file, line: lineOf['Entry-Definitions'] },
    );
  } else if (!files.has(packagePath(entry))) {
    diagnostics.error(
      'TOSCA_META_ENTRY_DEFINITIONS_MISSING',
      `Entry-Definitions "${entry}" is not in the package`,
      at('Entry-Definitions'),
    );
  }
  const manifest = meta.keys['ETSI-Entry-Manifest'];
  if (manifest !== undefined) {
    if (!/\.mf$/i.test(manifest)) {
      diagnostics.error(
        'TOSCA_META_BAD_MANIFEST_NAME',
        `ETSI-Entry-Manifest "${manifest}" is not a manifest: its name must end with .mf`,
        at('ETSI-Entry-Manifest'),
      );
    } else if (!files.has(packagePath(manifest))) {
      diagnostics.error(
        'TOSCA_META_FILE_MISSING',
        `ETSI-Entry-Manifest "${manifest}" is not in the package`,
        at('ETSI-Entry-Manifest'),
      );
    }
  }
  for (const key of FILE_KEYS) {
    const value = meta.keys[key];
    if (value !== undefined && !exists(files, value)) {
      diagnostics.error('TOSCA_META_FILE_MISSING', `${key} "${value}" is not in the package`, at(key));
    }
  }
  for (const other of (meta.keys['Other-Definitions'] ?? '').split(/\s+/).filter(Boolean)) {
    if (!files.has(packagePath(other))) {
      diagnostics.error(
        'TOSCA_META_FILE_MISSING',
        `Other-Definitions "${other}" is not in the package`,
        at('Other-Definitions'),
      );
    }
  }
}

/** Other-Definitions as a list of package paths. */
export function otherDefinitions(meta: ToscaMeta): string[] {
  return (meta.keys['Other-Definitions'] ?? '').split(/\s+/).filter(Boolean).map(packagePath);
}
