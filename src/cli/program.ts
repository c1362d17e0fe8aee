/** The `bosun` command: one sub-command per file under commands/. */
import { Command } from 'commander';
import { BOSUN_VERSION } from '../version.ts';
import { registerAuthClient } from './commands/auth-client.ts';
import { registerConfig } from './commands/config-show.ts';
import { registerDb } from './commands/db.ts';
import { registerOp } from './commands/op.ts';
import { registerPackage } from './commands/package.ts';
import { registerServe } from './commands/serve.ts';
import { registerSim } from './commands/sim.ts';
import { registerSubscription } from './commands/subscription.ts';
import { registerVersion } from './commands/version.ts';
import { registerVimCommands } from './commands/vim.ts';
import { registerVnf } from './commands/vnf.ts';

export function createProgram(): Command {
  const program = new Command('bosun')
    .description('Bosun: an ETSI NFV-SOL VNF manager')
    .version(BOSUN_VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerServe(program);
  registerDb(program);
  registerAuthClient(program);
  registerPackage(program);
  registerVnf(program);
  registerOp(program);
  registerSubscription(program);
  registerVimCommands(program);
  registerSim(program);
  registerConfig(program);
  registerVersion(program);
  return program;
}
