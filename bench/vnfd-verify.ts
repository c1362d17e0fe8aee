/**
 * Child of the vnfd benchmark: reads one package end to end (readPackage) and prints
 * {ms, maxRssMiB, valid, errors} as JSON — in its own process so that peak RSS is its own.
 */
import { readPackage } from '../src/vnfd/read-package.ts';

const started = performance.now();
const report = await readPackage(process.argv[2]);
const ms = performance.now() - started;
const maxRssMiB = process.resourceUsage().maxRSS / 1024;
const errors = report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
process.stdout.write(JSON.stringify({ ms, maxRssMiB, valid: report.valid, errors }) + '\n');
