/**
 * The ssh-command driver: on every VNFC an operation adds or replaces (instantiate_end,
 * scale_end, heal_end), it connects over SSH (additionalParams.ssh) to the VNFC's address,
 * uploads a file and runs a command (additionalParams.sshCommand), and stores in the VNFC's
 * metadata the node's host key (pinned: later operations refuse another key on the same server)
 * and the command's exit status and output tails. A failing command fails the hook with its
 * output; a retry runs it again.
 */
import type { VnfcResourceInfo } from '../../../../sol/instance-model.ts';
import type { HookOutput } from '../../hook-contract.ts';
import { inPhase, lineSplitter, NO_PROGRESS } from '../../hook-progress.ts';
import { knownFingerprint } from '../../ssh/host-keys.ts';
import { checkSshParams, sshOptions } from '../../ssh/ssh-params.ts';
import { type CommandResult, connectSsh, SshError } from '../../ssh/ssh-session.ts';
import { vnfcAddress } from '../../ssh/vnfc-address.ts';
import { type BuiltinCall, type BuiltinDriver, BuiltinDriverError } from '../driver.ts';
import { type SshCommandParams, SshCommandParamsSchema } from './params.ts';

/** Bytes of each output stream kept in the VNFC's metadata. */
const METADATA_OUTPUT = 4096;

/** The pinned host key a VNFC's metadata holds: valid for the server it was learnt on. */
interface PinnedKey {
  serverId: string;
  fingerprint: string;
}

const tail = (text: string) => (text.length > METADATA_OUTPUT ? text.slice(-METADATA_OUTPUT) : text);

/** The VNFCs the operation added or replaced, as the post-operation instance has them. */
function newVnfcs(call: BuiltinCall, params: SshCommandParams): VnfcResourceInfo[] {
  const all = call.input.vnfInstance.instantiatedVnfInfo?.vnfcResourceInfo ?? [];
  const changed = call.input.resourceChanges?.affectedVnfcs;
  const touched = changed
    ? new Set(changed.filter((c) => c.changeType === 'ADDED' || c.changeType === 'MODIFIED').map((c) => c.id))
    : undefined;
  return all.filter(
    (v) => (touched ? touched.has(v.id) : true) && (!params.vduIds || params.vduIds.includes(v.vduId)),
  );
}

function paramsOf(call: BuiltinCall): {
  ssh: NonNullable<ReturnType<typeof checkSshParams>>;
  command: SshCommandParams;
} {
  const additional = call.input.request.additionalParams;
  const ssh = checkSshParams(additional);
  const command = (additional as { sshCommand?: SshCommandParams } | undefined)?.sshCommand;
  if (!ssh || !command)
    throw new BuiltinDriverError(
      'The ssh-command management driver needs additionalParams.ssh (username and a password or privateKey) and additionalParams.sshCommand (command) in the request.',
    );
  return { ssh, command };
}

async function runOn(call: BuiltinCall, vnfc: VnfcResourceInfo, params: ReturnType<typeof paramsOf>) {
  const at = vnfcAddress(vnfc, call.input.vnfInstance.instantiatedVnfInfo, params.command.cpdIds);
  if ('problem' in at) throw new BuiltinDriverError(`${at.problem}.`, { vnfcId: vnfc.id });
  const pinned = vnfc.metadata?.sshHostKey as PinnedKey | undefined;
  const given = params.ssh.knownHosts?.[at.address];
  const known =
    (given ? knownFingerprint(given) : undefined) ??
    (pinned?.serverId === vnfc.computeResource.resourceId ? pinned.fingerprint : undefined);
  const { port, ...options } = sshOptions(params.ssh, call.signal, known);
  const where = `VNFC ${vnfc.id} (${vnfc.vduId}) at ${at.address}`;
  const progress = call.progress ?? NO_PROGRESS;
  let result: CommandResult;
  let fingerprint: string;
  try {
    const session = await inPhase(progress, `connect to ${at.address}:${port}`, vnfc.id, () =>
      connectSsh(at.address, port, { username: params.ssh.username, ...call.secrets }, options),
    );
    try {
      fingerprint = session.hostKey.fingerprint;
      const upload = params.command.upload;
      if (upload)
        await inPhase(progress, `upload ${upload.path}`, vnfc.id, () =>
          session.upload(upload.content, upload.path, upload.mode),
        );
      const out = lineSplitter((line) => progress.line('stdout', line, vnfc.id));
      const err = lineSplitter((line) => progress.line('stderr', line, vnfc.id));
      try {
        result = await inPhase(progress, `run command${params.command.sudo ? ' (sudo)' : ''}`, vnfc.id, () =>
          session.exec(params.command.command, {
            sudo: params.command.sudo === true,
            onOutput: (stream, chunk) => (stream === 'stdout' ? out : err).push(chunk),
          }),
        );
      } finally {
        out.end();
        err.end();
      }
    } finally {
      session.close();
    }
  } catch (err) {
    if (err instanceof SshError)
      throw new BuiltinDriverError(`${where}: ${err.message}`, { vnfcId: vnfc.id, ...err.facts });
    throw err;
  }
  const metadata: Record<string, unknown> = {
    sshHostKey: { serverId: vnfc.computeResource.resourceId, fingerprint } satisfies PinnedKey,
    sshCommand: {
      command: result.command,
      exitStatus: result.exitCode,
      stdout: tail(result.stdout),
      stderr: tail(result.stderr),
      truncated:
        result.truncated || result.stdout.length > METADATA_OUTPUT || result.stderr.length > METADATA_OUTPUT,
    },
  };
  return { id: vnfc.id, metadata };
}

async function onNewVnfcs(call: BuiltinCall): Promise<HookOutput> {
  const params = paramsOf(call);
  const out: NonNullable<HookOutput['vnfcResourceInfo']> = [];
  // One node after the other: a failure names the first node that failed, and a retry runs all again.
  for (const vnfc of newVnfcs(call, params.command)) out.push(await runOn(call, vnfc, params));
  return out.length ? { vnfcResourceInfo: out } : {};
}

export const sshCommandDriver: BuiltinDriver = {
  name: 'ssh-command',
  description:
    'runs additionalParams.sshCommand over SSH on every new or replaced VNFC and keeps its output in the VNFC’s metadata',
  params: { key: 'sshCommand', schema: SshCommandParamsSchema },
  hooks: {
    instantiate_end: onNewVnfcs,
    scale_end: onNewVnfcs,
    heal_end: onNewVnfcs,
  },
};
