/** `bosun auth client add|list|remove` — placeholder until the OAuth 2.0 client store lands. */
import type { Command } from 'commander';

export function registerAuthClient(program: Command): void {
  program.command('auth').description('OAuth 2.0 clients of the built-in token endpoint');
}
