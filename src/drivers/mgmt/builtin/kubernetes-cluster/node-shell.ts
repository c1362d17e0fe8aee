/**
 * One SSH session to a cluster node (a master, a worker or the HAProxy node): opened with the
 * request's credentials under its host-key policy (a key given in knownHosts, else the one
 * pinned for that server), running the driver's commands and logging each. A failure — the node
 * unreachable, its key changed, a command's non-zero exit — becomes the driver's error naming the
 * node, the command, its output and the commands that ran before it.
 */
import { knownFingerprint } from '../../ssh/host-keys.ts';
import { sshOptions } from '../../ssh/ssh-params.ts';
import { type CommandResult, connectSsh, SshError, type SshSession } from '../../ssh/ssh-session.ts';
import { BuiltinDriverError } from '../driver.ts';
import type { DriverContext } from './context.ts';

/** Lines of the command log kept in an error. */
const LOG_LINES = 40;

export interface NodeTarget {
  /** How the node is named in messages, e.g. `master master-10-0-0-5 (VNFC …)`. */
  label: string;
  address: string;
  username?: string;
  /** The fingerprint on record for this node's current server, if any. */
  pinned?: string;
}

export interface NodeShell {
  label: string;
  /** Runs a command; a non-zero exit fails the hook unless `allowFailure`. */
  run(command: string, opts?: { allowFailure?: boolean }): Promise<CommandResult>;
}

function failure(ctx: DriverContext, label: string, err: SshError): BuiltinDriverError {
  return new BuiltinDriverError(`${label}: ${err.message}`, {
    node: label,
    ...err.facts,
    commandsRun: ctx.log.slice(-LOG_LINES).join('\n'),
  });
}

/** Opens a session to `target`, runs `work` with it and closes it. */
export async function onNode<T>(
  ctx: DriverContext,
  target: NodeTarget,
  work: (shell: NodeShell) => Promise<T>,
): Promise<T> {
  const given = ctx.ssh.knownHosts?.[target.address];
  const known = (given ? knownFingerprint(given) : undefined) ?? target.pinned;
  const { port, ...options } = sshOptions(ctx.ssh, ctx.call.signal, known);
  let session: SshSession;
  try {
    session = await connectSsh(
      target.address,
      port,
      { username: target.username ?? ctx.ssh.username, ...ctx.call.secrets },
      options,
    );
  } catch (err) {
    if (err instanceof SshError) throw failure(ctx, target.label, err);
    throw err;
  }
  ctx.seenKeys.set(target.address, session.hostKey.fingerprint);
  const shell: NodeShell = {
    label: target.label,
    async run(command, opts = {}) {
      try {
        const result = await session.exec(command, {
          sudo: ctx.settings.sudo,
          allowFailure: opts.allowFailure ?? false,
        });
        ctx.log.push(`${target.label}: ${command.split('\n')[0]} → ${result.exitCode}`);
        return result;
      } catch (err) {
        ctx.log.push(`${target.label}: ${command.split('\n')[0]} → failed`);
        if (err instanceof SshError) throw failure(ctx, target.label, err);
        throw err;
      }
    },
  };
  try {
    return await work(shell);
  } finally {
    session.close();
  }
}
