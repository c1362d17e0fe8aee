/** Entry point: parses argv and runs the command; failures are one line on stderr and exit 1. */
import { CommanderError } from 'commander';
import { createProgram } from './cli/program.ts';

// Output piped into a reader that stops early (`bosun … | head`) is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

async function main(): Promise<void> {
  try {
    const program = await createProgram(process.argv.slice(2));
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander already printed usage errors; --help and --version exit 0.
      process.exitCode = err.exitCode;
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`bosun: error: ${message}\n`);
    process.exitCode = 1;
  }
}

await main();
