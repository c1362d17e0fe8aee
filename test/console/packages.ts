/** Packages the console tests upload that no sample provides: one whose VNFD has a mistake on a known line. */
import { readFile, writeFile } from 'node:fs/promises';
import yazl from 'yazl';

/** The line of single.yaml that names a node type no one defines. */
export const BROKEN_LINE = 27;

/** A one-file VNFD package whose VDU1 has the unknown type tosca.nodes.nfv.Vdu.Computer (line 27). */
export async function brokenPackage(path: string): Promise<void> {
  const text = await readFile(new URL('../http/vnfpkgm/single-vnfd.yaml', import.meta.url), 'utf8');
  const lines = text.replace('VNFD_ID', 'b0b0b0b0-0000-4000-8000-000000000027').split('\n');
  assert(lines[BROKEN_LINE - 1].trim() === 'type: tosca.nodes.nfv.Vdu.Compute');
  lines[BROKEN_LINE - 1] = lines[BROKEN_LINE - 1].replace('Vdu.Compute', 'Vdu.Computer');
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(lines.join('\n')), 'single.yaml');
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  await writeFile(path, Buffer.concat(chunks));
}

function assert(ok: boolean): asserts ok {
  if (!ok) throw new Error('single-vnfd.yaml changed: BROKEN_LINE no longer names VDU1’s type');
}
