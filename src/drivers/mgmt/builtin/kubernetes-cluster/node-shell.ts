/**
 * One SSH session to a cluster node (a master, a worker or the HAProxy node): opened with the
 * request's credentials under its host-key policy (a key given in knownHosts, else the one
 * pinned for that server), running the driver's commands and logging each. A failure — the node
 * unreachable, its key changed, a command's non-zero exit — becomes the driver's error naming the
 * node, the command, its output and the commands that ran before it.
 */
import { inPhase, lineSplitter, NO_PROGRESS } from '../../hook-progress.ts';
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
  /** The VNFC the node is, for the op occ's timeline. */
  vnfcId?: string;
}

export interface NodeShell {
  label: string;
  /**
   * Runs a command; a non-zero exit fails the hook unless `allowFailure`. `secretOutput`: its
   * output is not shown on the op occ's timeline.
   */
  run(command: string, opts?: { allowFailure?: boolean; secretOutput?: boolean }): Promise<CommandResult>;
}

/** A command as it may be shown: without the join token and certificate key it carries. */
export const redacted = (command: string) => command.replace(/(--token|--certificate-key)\s+\S+/g, '$1 ***');

function failure(ctx: DriverContext, label: string, err: SshError): BuiltinDriverError {
  return new BuiltinDriverError(`${label}: ${err.message}`, {
    node: label,
    ...err.facts,
    ...(typeof err.facts.command === 'string' ? { command: redacted(err.facts.command) } : {}),
    commandsRun: ctx.log.slice(-LOG_LINES).join('\n'),
  });
}

/** Runs `work` on `target`, in the hook's session to it (opened on first use, closed by `closing`). */
export async function onNode<T>(
  ctx: DriverContext,
  target: NodeTarget,
  work: (shell: NodeShell) => Promise<T>,
): Promise<T> {
  const given = ctx.ssh.knownHosts?.[target.address];
  const known = (given ? knownFingerprint(given) : undefined) ?? target.pinned;
  const { port, ...options } = sshOptions(ctx.ssh, ctx.call.signal, known);
  const progress = ctx.call.progress ?? NO_PROGRESS;
  const username = target.username ?? ctx.ssh.username;
  const key = `${username}@${target.address}`;
  let opening = ctx.sessions.get(key);
  if (!opening) {
    opening = inPhase(
      progress,
      `connect to ${target.label} at ${target.address}:${port}`,
      target.vnfcId,
      () => connectSsh(target.address, port, { username, ...ctx.call.secrets }, options),
    );
    ctx.sessions.set(key, opening);
  }
  let session: SshSession;
  try {
    session = await opening;
  } catch (err) {
    // Not kept: the next step may try again (another master, or the same one later).
    ctx.sessions.delete(key);
    if (err instanceof SshError) throw failure(ctx, target.label, err);
    throw err;
  }
  ctx.seenKeys.set(target.address, session.hostKey.fingerprint);
  const shell: NodeShell = {
    label: target.label,
    async run(command, opts = {}) {
      // The timeline shows each command as a phase with its output lines, but for the output
      // that is a secret (join tokens, certificate keys, the kubeconfig).
      const shown = redacted(command.split('\n')[0] ?? '');
      const lines = (stream: 'stdout' | 'stderr') =>
        lineSplitter((line) => {
          if (!opts.secretOutput) progress.line(stream, line, target.vnfcId);
        });
      const streams = { stdout: lines('stdout'), stderr: lines('stderr') };
      try {
        const result = await inPhase(progress, `${target.label}: ${shown}`, target.vnfcId, () =>
          session.exec(command, {
            sudo: ctx.settings.sudo,
            allowFailure: opts.allowFailure ?? false,
            onOutput: (stream, chunk) => streams[stream].push(chunk),
          }),
        );
        ctx.log.push(`${target.label}: ${shown} → ${result.exitCode}`);
        return result;
      } catch (err) {
        ctx.log.push(`${target.label}: ${shown} → failed`);
        if (err instanceof SshError) throw failure(ctx, target.label, err);
        throw err;
      } finally {
        streams.stdout.end();
        streams.stderr.end();
      }
    },
  };
  return work(shell);
}
