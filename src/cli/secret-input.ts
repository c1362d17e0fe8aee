/**
 * Reading a secret (a VIM password) without it ever being on the command line, where shell
 * history and the process list would keep it: from a file (`-` for stdin), from an environment
 * variable, or typed at a prompt that does not echo.
 */
import { readFileSync } from 'node:fs';
import { CliError } from './output.ts';

export interface SecretSources {
  /** A file holding the secret (its trailing newline dropped); `-` reads stdin. */
  file?: string;
  /** The environment variable to read it from. */
  env: string;
  /** What the prompt asks for (shown on stderr). */
  prompt: string;
  /** The flag naming the file, for the error when none is given. */
  fileFlag: string;
}

const withoutNewline = (text: string) => text.replace(/\r?\n$/, '');

function fromFile(file: string, flag: string): string {
  try {
    return withoutNewline(readFileSync(file === '-' ? 0 : file, 'utf8'));
  } catch (err) {
    throw new CliError(`${flag} ${file}: ${(err as Error).message}`);
  }
}

/** Reads a line from the terminal with echo off (Ctrl-C aborts). */
function fromPrompt(prompt: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new CliError('interrupted'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    process.stderr.write(`${prompt}: `);
    input.setRawMode(true);
    input.resume();
    input.on('data', onData);
  });
}

export async function readSecret(sources: SecretSources): Promise<string> {
  let secret: string | undefined;
  if (sources.file !== undefined) secret = fromFile(sources.file, sources.fileFlag);
  else if (process.env[sources.env] !== undefined) secret = process.env[sources.env];
  else if (process.stdin.isTTY) secret = await fromPrompt(sources.prompt);
  else {
    throw new CliError(
      `${sources.prompt} is needed: give it with ${sources.fileFlag} FILE (- for stdin), in ${sources.env}, or run on a terminal to be asked`,
    );
  }
  if (!secret) throw new CliError(`${sources.prompt} is empty`);
  return secret;
}
