/**
 * The `bosun` command: one top-level command per module under commands/. A module — and what it
 * imports: the server, the database, the VNFD reader… — is loaded only when its command runs, so
 * that `bosun --help` or `bosun vnf list` start in a fraction of a second; the other commands are
 * listed in the help from this table alone.
 */
import { Command } from 'commander';
import { BOSUN_VERSION } from '../version.ts';

interface CommandModule {
  /** Adds the options, sub-commands and actions to the command, named and described here. */
  register(command: Command): void;
}

interface TopLevelCommand {
  name: string;
  description: string;
  load: () => Promise<CommandModule>;
}

export const COMMANDS: readonly TopLevelCommand[] = [
  {
    name: 'serve',
    description: 'run the Bosun server (API and worker in one process by default)',
    load: () => import('./commands/serve.ts'),
  },
  { name: 'db', description: 'database administration', load: () => import('./commands/db.ts') },
  {
    name: 'auth',
    description: 'authentication administration',
    load: () => import('./commands/auth-client.ts'),
  },
  {
    name: 'package',
    description: 'VNF packages (SOL004 CSARs)',
    load: () => import('./commands/package.ts'),
  },
  {
    name: 'vnf',
    description: 'VNF instances and their lifecycle operations (/vnflcm/v2, or v1 with --api-version 1)',
    load: () => import('./commands/vnf.ts'),
  },
  {
    name: 'op',
    description: 'LCM operation occurrences: list, show, retry, rollback, fail, cancel',
    load: () => import('./commands/op.ts'),
  },
  {
    name: 'subscription',
    description: 'subscriptions of every API and the delivery of their notifications',
    load: () => import('./commands/subscription.ts'),
  },
  {
    name: 'alarm',
    description: 'alarms (/vnffm/v1): list, show, ack, unack, escalate, rebuild',
    load: () => import('./commands/alarm.ts'),
  },
  {
    name: 'fm',
    description: 'fault management: subscribe to alarm notifications',
    load: () => import('./commands/fm.ts'),
  },
  {
    name: 'vim',
    description: 'the VIM registry: VIMs instances are deployed on (admin)',
    load: () => import('./commands/vim.ts'),
  },
  {
    name: 'sim',
    description: 'the simulated VIM: what it holds, and faults to inject (admin)',
    load: () => import('./commands/sim.ts'),
  },
  {
    name: 'status',
    description: 'the cluster at a glance: replicas alive or stale, job queue depths (admin)',
    load: () => import('./commands/status.ts'),
  },
  {
    name: 'blobs',
    description: "the blob store: migrate a single node's blobs to S3",
    load: () => import('./commands/blobs.ts'),
  },
  { name: 'config', description: 'configuration', load: () => import('./commands/config-show.ts') },
  {
    name: 'version',
    description: 'print the version of Bosun and of the APIs it serves',
    load: () => import('./commands/version.ts'),
  },
];

/** The top-level command `args` run: the first word that is not an option (`help X`: X). */
function commandOf(args: readonly string[]): string | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
}

/** The program for `args` (argv without node and the script): only their command is loaded. */
export async function createProgram(args: readonly string[]): Promise<Command> {
  const program = new Command('bosun')
    .description('Bosun: an ETSI NFV-SOL VNF manager')
    .version(BOSUN_VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  const wanted = commandOf(args);
  for (const entry of COMMANDS) {
    const command = program.command(entry.name).description(entry.description);
    if (entry.name === wanted) (await entry.load()).register(command);
  }
  return program;
}
