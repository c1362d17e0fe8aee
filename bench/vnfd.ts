/**
 * VNF package engine benchmarks:
 * 1. verify a package holding one 1 GiB image (hash-checked from the manifest) with a realistic
 *    VNFD, next to `sha256sum` of the same image in the same run (target ≤ 1.3×), and the
 *    verifier's peak RSS (target ≤ 150 MiB);
 * 2. parse and model the largest sample VNFD repeatedly (packages per second).
 * BOSUN_BENCH_IMAGE_MIB (default 1024), BOSUN_BENCH_DURATION (s, default 5).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPackage } from '../src/vnfd/csar/build.ts';
import { readCsar } from '../src/vnfd/csar/read-csar.ts';
import { openZipPackage } from '../src/vnfd/csar/zip-reader.ts';
import { extractVnfd } from '../src/vnfd/model/extract.ts';
import { loadTosca } from '../src/vnfd/tosca/load.ts';
import { SAMPLES_DIR } from '../test/support/samples.ts';
import { addLargeImage, IMAGE, samplePackageFolder } from './support/packages.ts';
import { printRows, type Row } from './support/report.ts';

const imageMiB = Number(process.env.BOSUN_BENCH_IMAGE_MIB ?? '1024');
const duration = Number(process.env.BOSUN_BENCH_DURATION ?? '5');

const work = await mkdtemp(join(tmpdir(), 'bosun-bench-vnfd-'));
const rows: Row[] = [];
try {
  // 1. A realistic package (vnflcm1: 2 type files, flavour, VNFD) with a 1 GiB image in TOSCA.meta.
  const dir = join(work, 'pkg');
  await samplePackageFolder(dir);
  await addLargeImage(dir, imageMiB);
  const zip = join(work, 'pkg.zip');
  let t = performance.now();
  const built = await buildPackage(dir, zip);
  const buildS = (performance.now() - t) / 1000;
  if (!built.updated.includes(IMAGE)) throw new Error(`the image hash was not written: ${built.updated}`);

  t = performance.now();
  const sum = execFileSync('sha256sum', [join(dir, ...IMAGE.split('/'))], { encoding: 'utf8' });
  const sha256sumS = (performance.now() - t) / 1000;
  const child = spawnSync(process.execPath, [new URL('./vnfd-verify.ts', import.meta.url).pathname, zip], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`verifier failed: ${child.stderr}`);
  const verify = JSON.parse(child.stdout) as {
    ms: number;
    maxRssMiB: number;
    valid: boolean;
    errors: string[];
  };
  if (!verify.valid) throw new Error(`the generated package is invalid: ${verify.errors.join('; ')}`);
  const ratio = verify.ms / 1000 / sha256sumS;
  rows.push(
    [`build ${imageMiB} MiB package (bosun package build)`, `${buildS.toFixed(2)} s`, ''],
    [`sha256sum of the ${imageMiB} MiB image`, `${sha256sumS.toFixed(2)} s`, `(${sum.slice(0, 12)}…)`],
    [
      `verify the package (readPackage)`,
      `${(verify.ms / 1000).toFixed(2)} s`,
      `${ratio.toFixed(2)}× sha256sum (target ≤ 1.3×); Tacker onboards 1 GiB in 38.8 s`,
    ],
    [
      `  peak RSS of the verifier`,
      `${verify.maxRssMiB.toFixed(0)} MiB`,
      'target ≤ 150 MiB; Tacker +1,025 MiB',
    ],
  );

  // 2. The largest sample VNFD (by Definitions size), parsed and modelled repeatedly.
  const largest = readdirSync(SAMPLES_DIR)
    .filter((f) => f.endsWith('.zip'))
    .map((f) => ({ f, size: statSync(join(SAMPLES_DIR, f)).size }))
    .sort((a, b) => b.size - a.size);
  let chosen = '';
  let best = -1;
  for (const { f } of largest) {
    const { files } = await openZipPackage(join(SAMPLES_DIR, f));
    if (!files) continue;
    const defs = files.names
      .filter((n) => /\.ya?ml$/.test(n) && !n.startsWith('Files/'))
      .reduce((s, n) => s + files.size(n), 0);
    const info = await readCsar(files, { imageHashMismatch: 'warning' });
    if (defs > best && info.entryDefinitions && !info.diagnostics.some((d) => d.severity === 'error')) {
      best = defs;
      chosen = f;
    }
    await files.close();
  }
  const { files } = await openZipPackage(join(SAMPLES_DIR, chosen));
  if (!files) throw new Error(chosen);
  const info = await readCsar(files, { imageHashMismatch: 'warning' });
  let count = 0;
  const until = performance.now() + duration * 1000;
  t = performance.now();
  while (performance.now() < until) {
    const tosca = await loadTosca(files, info.entryDefinitions!);
    const model = extractVnfd(tosca, info, { fileNames: files.names });
    if (!model.vnfd) throw new Error(`${chosen} did not model`);
    count++;
  }
  const rate = count / ((performance.now() - t) / 1000);
  await files.close();
  rows.push([
    `parse + model ${chosen} (${(best / 1024).toFixed(0)} KiB of YAML)`,
    `${rate.toFixed(0)} packages/s`,
    `${(1000 / rate).toFixed(1)} ms each`,
  ]);
} finally {
  if (!process.env.BOSUN_BENCH_KEEP) await rm(work, { recursive: true, force: true });
}

printRows('Bosun VNF package engine benchmarks', rows);
