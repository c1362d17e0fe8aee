/**
 * `bosun blobs migrate --to s3`: a single node's package blobs (the folder blobs.dir) copied into
 * the bucket of blobs.s3, key for key, before the node's configuration switches blobs.backend
 * to s3. Verified, and safe to run again: what is already there is skipped.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config/load.ts';
import { type CopiedBlob, copyBlobs } from '../../store/blobs/copy-blobs.ts';
import { createS3BlobStore, FsBlobStore } from '../../store/blobs/index.ts';
import { CliError, emit } from '../output.ts';
import { formatBytes } from '../progress.ts';

const OUTCOMES: Record<CopiedBlob['outcome'], string> = {
  copied: 'copied',
  present: 'already there',
  failed: 'FAILED',
};

export function register(blobs: Command): void {
  blobs
    .command('migrate')
    .description('copy every blob of the folder blobs.dir into the bucket of blobs.s3 (verified, resumable)')
    .requiredOption('--to <backend>', 'the store to copy into: s3')
    .option('-c, --config <file>', 'YAML configuration file')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { to: string; config?: string; json?: boolean }) => {
      if (opts.to !== 's3') throw new CliError(`--to ${opts.to}: the blobs can be migrated to s3 only`);
      const config = loadConfig({ file: opts.config });
      const from = new FsBlobStore(config.blobs.dir);
      const to = createS3BlobStore(config);
      const target = `s3://${to.bucket}/${to.prefix}`;
      try {
        const summary = await copyBlobs(from, to, {
          onBlob: (blob, index, total) => {
            const what =
              blob.outcome === 'failed'
                ? `${OUTCOMES.failed}: ${blob.error}`
                : `(${formatBytes(blob.size)}): ${OUTCOMES[blob.outcome]}`;
            process.stderr.write(`[${index + 1}/${total}] ${blob.key} ${what}\n`);
          },
        });
        emit(opts.json, { from: from.dir, to: target, ...summary }, () => {
          process.stdout.write(
            `${from.dir} → ${target}: ${summary.copied} copied (${formatBytes(summary.bytes)}), ` +
              `${summary.present} already there, ${summary.failed.length} failed\n`,
          );
        });
        if (summary.failed.length > 0) {
          throw new CliError(
            `${summary.failed.length} blob(s) not copied: run the command again once the cause is fixed`,
          );
        }
      } finally {
        to.client.destroy();
      }
    });
}
