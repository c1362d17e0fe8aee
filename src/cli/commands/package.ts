/**
 * `bosun package lint <dir|zip>` — everything onboarding checks, offline, with every problem
 * and a summary of what was understood; `bosun package build <dir> -o <zip>` — zips a package
 * folder and writes the manifest's hashes.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Vnfd } from '../../vnfd/model/vnfd.ts';
import { CliError, emit, printJson } from '../output.ts';
import { registerPackageApi } from './package-api.ts';

type BuiltinFor = typeof import('../../drivers/mgmt/builtin/registry.ts').builtinFor;

const POLICIES = ['off', 'verify-if-present', 'required'] as const;
const SEVERITIES = ['error', 'warning'] as const;

interface LintOptions {
  json?: boolean;
  signaturePolicy: string;
  trustAnchor: string[];
  imageHashMismatch: string;
  strict?: boolean;
}

/** `builtinFor` is passed in: the registry is loaded only by the command that lints a package. */
function summary(vnfd: Vnfd, builtinFor: BuiltinFor): string[] {
  const v = vnfd.vnf;
  const lines = [
    `vnfdId       ${v.descriptorId}`,
    `provider     ${v.provider}`,
    `product      ${v.productName} ${v.softwareVersion} (VNFD ${v.descriptorVersion})`,
  ];
  for (const f of vnfd.flavours) {
    lines.push(`flavour      ${f.flavourId}${f.description ? ` — ${f.description}` : ''}`);
    for (const vdu of f.vdus) {
      const { minNumberOfInstances: min, maxNumberOfInstances: max } = vdu.vduProfile;
      lines.push(
        `  VDU        ${vdu.id} (${vdu.name}) instances ${min}..${max}${vdu.swImage ? `, image ${vdu.swImage}` : ''}`,
      );
    }
    for (const a of f.scalingAspects) lines.push(`  aspect     ${a.id} max scale level ${a.maxScaleLevel}`);
    for (const level of f.instantiationLevels?.levels ?? []) lines.push(`  level      ${level.id}`);
    const hooks = f.lcmOperations.map((o) => o.name);
    if (hooks.length) lines.push(`  hooks      ${hooks.join(', ')}`);
    const onHost = new Map<string, string[]>();
    for (const o of f.lcmOperations) {
      if (o.artifact?.kind === 'host-path')
        onHost.set(o.artifact.path, [...(onHost.get(o.artifact.path) ?? []), o.name]);
    }
    for (const [path, names] of onHost) {
      const found = builtinFor(path);
      lines.push(
        'driver' in found
          ? `  host path  ${path}: built-in driver ${found.driver.name} (hooks ${names.join(', ')})`
          : `  host path  ${path} cannot run: no built-in driver has that file name (hooks ${names.join(', ')})`,
      );
    }
  }
  for (const image of vnfd.softwareImages) {
    lines.push(
      `image        ${image.flavourId}/${image.id}: ${image.name} ${image.version} ${image.diskFormat}, ${image.size} bytes, ${image.imagePath || '(no file)'}`,
    );
  }
  for (const artifact of vnfd.additionalArtifacts) lines.push(`artifact     ${artifact.artifactPath}`);
  return lines;
}

export function register(pkg: Command): void {
  registerPackageApi(pkg);
  pkg
    .command('lint <path>')
    .description('check a package directory or CSAR zip offline: exit 0 when valid, 1 when not')
    .option('--json', 'print JSON')
    .option('--signature-policy <policy>', `${POLICIES.join(' | ')}`, 'verify-if-present')
    .option(
      '--trust-anchor <pem-file>',
      'trusted CA certificate (repeat for several)',
      (f: string, all: string[]) => [...all, f],
      [] as string[],
    )
    .option('--image-hash-mismatch <severity>', `${SEVERITIES.join(' | ')}`, 'error')
    .option('--strict', 'refuse what Tacker accepts but Bosun only warns about (packages.strict)')
    .action(async (path: string, opts: LintOptions) => {
      if (!POLICIES.includes(opts.signaturePolicy as (typeof POLICIES)[number])) {
        throw new CliError(`--signature-policy must be one of ${POLICIES.join(', ')}`);
      }
      if (!SEVERITIES.includes(opts.imageHashMismatch as (typeof SEVERITIES)[number])) {
        throw new CliError(`--image-hash-mismatch must be one of ${SEVERITIES.join(', ')}`);
      }
      const trustAnchors = opts.trustAnchor.map((f) => readFileSync(f, 'utf8'));
      // The package reader is loaded by lint and build only, not by the package API commands.
      const { readPackage } = await import('../../vnfd/read-package.ts');
      const { formatDiagnostic } = await import('../../vnfd/diagnostics.ts');
      const { builtinFor } = await import('../../drivers/mgmt/builtin/registry.ts');
      const report = await readPackage(path, {
        signaturePolicy: opts.signaturePolicy as (typeof POLICIES)[number],
        trustAnchors,
        imageHashMismatch: opts.imageHashMismatch as (typeof SEVERITIES)[number],
        strict: opts.strict === true,
      });
      emit(opts.json, { valid: report.valid, diagnostics: report.diagnostics, vnfd: report.vnfd }, () => {
        for (const d of report.diagnostics) process.stdout.write(formatDiagnostic(d) + '\n');
        if (report.vnfd) process.stdout.write(summary(report.vnfd, builtinFor).join('\n') + '\n');
        const errors = report.diagnostics.filter((d) => d.severity === 'error').length;
        const warnings = report.diagnostics.length - errors;
        process.stdout.write(
          `${path}: ${report.valid ? 'valid' : 'INVALID'} (${errors} error(s), ${warnings} warning(s))\n`,
        );
      });
      if (!report.valid) process.exitCode = 1;
    });
  pkg
    .command('build <dir>')
    .description("zip a package directory, writing or updating the manifest's hashes")
    .requiredOption('-o, --output <zip>', 'the CSAR to write')
    .option('--json', 'print JSON')
    .action(async (dir: string, opts: { output: string; json?: boolean }) => {
      const { buildPackage } = await import('../../vnfd/csar/build.ts');
      const result = await buildPackage(dir, opts.output);
      if (opts.json) return printJson(result);
      process.stdout.write(
        `${opts.output}: ${result.entries} files${result.manifest ? `, manifest ${result.manifest}` : ''}\n`,
      );
      for (const path of result.updated) process.stdout.write(`  hash written for ${path}\n`);
    });
}
