/**
 * `additionalParams.ssh` of an LCM request: how the management drivers reach the VNF's nodes
 * (user, password or private key, port, host-key policy and known hosts, timeouts, attempts).
 * Checked when the request is accepted; its secrets are then sealed (ssh-secrets.ts) and never
 * stored or shown in the clear.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ApiError } from '../../../sol/problem.ts';
import type { HostKeyPolicy } from './host-keys.ts';
import { knownFingerprint } from './host-keys.ts';
import type { SshOptions } from './ssh-session.ts';

const KEY_TEXT = 16 * 1024;

export const SshParamsSchema = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._][A-Za-z0-9._-]*$' }),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    privateKey: Type.Optional(Type.String({ minLength: 1, maxLength: KEY_TEXT })),
    passphrase: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    hostKeyPolicy: Type.Optional(Type.Union([Type.Literal('strict'), Type.Literal('accept-new')])),
    /** Address → host key (`ssh-ed25519 AAAA…` or its `SHA256:…` fingerprint). */
    knownHosts: Type.Optional(
      Type.Record(Type.String({ maxLength: 255 }), Type.String({ maxLength: KEY_TEXT }), {
        maxProperties: 1000,
      }),
    ),
    connectTimeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 600_000 })),
    commandTimeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 3_600_000 })),
    attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    backoffMs: Type.Optional(Type.Integer({ minimum: 10, maximum: 60_000 })),
    maxBackoffMs: Type.Optional(Type.Integer({ minimum: 10, maximum: 300_000 })),
  },
  { additionalProperties: false },
);
export type SshParams = Static<typeof SshParamsSchema>;

/** The keys of `additionalParams.ssh` that are secrets. */
export const SSH_SECRET_KEYS = ['password', 'privateKey', 'passphrase'] as const;
export type SshSecrets = Partial<Record<(typeof SSH_SECRET_KEYS)[number], string>>;

/** Defaults, for nodes that may still be booting when the end hook runs. */
const DEFAULTS = {
  port: 22,
  hostKeyPolicy: 'accept-new' as HostKeyPolicy,
  connectTimeoutMs: 10_000,
  commandTimeoutMs: 300_000,
  attempts: 10,
  backoffMs: 1000,
  maxBackoffMs: 30_000,
};

/** Bytes of each output stream a command keeps. */
export const SSH_OUTPUT_BYTES = 64 * 1024;

/** `additionalParams.ssh` checked; a 400 naming the first problem otherwise. Undefined when absent. */
export function checkSshParams(additionalParams: unknown): SshParams | undefined {
  const ssh = (additionalParams as { ssh?: unknown } | undefined)?.ssh;
  if (ssh === undefined) return undefined;
  if (!Value.Check(SshParamsSchema, ssh)) {
    const first = Value.Errors(SshParamsSchema, ssh).First();
    throw new ApiError(
      400,
      `additionalParams.ssh${first?.path ?? ''} is invalid: ${first?.message ?? 'not an object'}.`,
    );
  }
  for (const [address, key] of Object.entries(ssh.knownHosts ?? {})) {
    if (!knownFingerprint(key))
      throw new ApiError(
        400,
        `additionalParams.ssh.knownHosts["${address}"] is neither a public key line (ssh-ed25519 AAAA…) nor a SHA256: fingerprint.`,
      );
  }
  return ssh;
}

/** The session options of `params`, for one node. */
export function sshOptions(
  params: SshParams,
  signal: AbortSignal,
  knownFingerprint: string | undefined,
): SshOptions & { port: number } {
  const d = { ...DEFAULTS, ...params };
  return {
    port: d.port,
    hostKeyPolicy: d.hostKeyPolicy,
    ...(knownFingerprint ? { knownFingerprint } : {}),
    connectTimeoutMs: d.connectTimeoutMs,
    commandTimeoutMs: d.commandTimeoutMs,
    attempts: d.attempts,
    backoffMs: d.backoffMs,
    maxBackoffMs: Math.max(d.maxBackoffMs, d.backoffMs),
    outputBytes: SSH_OUTPUT_BYTES,
    signal,
  };
}
