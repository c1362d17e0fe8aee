/**
 * The `key: value` block syntax shared by TOSCA.meta and manifests (SOL004): lines grouped in
 * blocks separated by blank lines, each line remembered with its 1-based number so that
 * diagnostics can point at it.
 */

export interface MetaLine {
  key: string;
  value: string;
  line: number;
  /** Leading spaces: manifests nest metadata and non-MANO artifact sets by indentation. */
  indent: number;
}

export interface MetaBlock {
  /** Line of the block's first entry. */
  line: number;
  entries: MetaLine[];
}

export interface MalformedLine {
  line: number;
  text: string;
}

/** Splits text into blocks; a line without `key:` is reported, not dropped silently. */
export function splitBlocks(text: string): { blocks: MetaBlock[]; malformed: MalformedLine[] } {
  const blocks: MetaBlock[] = [];
  const malformed: MalformedLine[] = [];
  let current: MetaBlock | undefined;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') {
      current = undefined;
      return;
    }
    const match = /^(\s*)([^:\s][^:]*?)\s*:(?:\s+(.*?)|\s*)$/.exec(raw);
    if (!match) {
      malformed.push({ line, text: raw });
      return;
    }
    if (!current) {
      current = { line, entries: [] };
      blocks.push(current);
    }
    current.entries.push({
      key: match[2],
      value: unquote((match[3] ?? '').trim()),
      line,
      indent: match[1].length,
    });
  });
  return { blocks, malformed };
}

/** First entry of a block with this key, case-insensitively (samples write `Created-by`). */
export function entryOf(block: MetaBlock, key: string): MetaLine | undefined {
  const wanted = key.toLowerCase();
  return block.entries.find((e) => e.key.toLowerCase() === wanted);
}

/** Tacker loads these files as YAML, so a quoted value means the unquoted string. */
function unquote(value: string): string {
  const quoted = /^(['"])(.*)\1$/.exec(value);
  return quoted ? quoted[2] : value;
}
