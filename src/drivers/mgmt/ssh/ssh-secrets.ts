/**
 * The secrets of `additionalParams.ssh` at rest: when a request is accepted they are taken out
 * of the parameters the op occ keeps and shows, and kept sealed with the op occ's accept facts;
 * a built-in management driver gets them opened, a package script never.
 */
import type { SealedBox } from '../../../security/sealed-box.ts';
import { SSH_SECRET_KEYS, type SshSecrets } from './ssh-params.ts';

/** Sealed secrets by key, as stored. */
export type SealedSshSecrets = Partial<Record<(typeof SSH_SECRET_KEYS)[number], string>>;

/**
 * Removes the secrets from `additionalParams.ssh` (a copy is returned) and seals them;
 * undefined when the request carries none.
 */
export function sealSshSecrets(
  box: SealedBox,
  additionalParams: Record<string, unknown> | undefined,
): { additionalParams: Record<string, unknown>; sealed: SealedSshSecrets } | undefined {
  const ssh = additionalParams?.ssh as Record<string, unknown> | undefined;
  if (!additionalParams || !ssh || !SSH_SECRET_KEYS.some((k) => typeof ssh[k] === 'string')) return undefined;
  const sealed: SealedSshSecrets = {};
  const rest: Record<string, unknown> = { ...ssh };
  for (const key of SSH_SECRET_KEYS) {
    const value = ssh[key];
    delete rest[key];
    if (typeof value === 'string') sealed[key] = box.seal(value);
  }
  return { additionalParams: { ...additionalParams, ssh: rest }, sealed };
}

export function openSshSecrets(box: SealedBox, sealed: SealedSshSecrets | undefined): SshSecrets {
  const open: SshSecrets = {};
  for (const key of SSH_SECRET_KEYS) {
    const value = sealed?.[key];
    if (value) open[key] = box.open(value).toString('utf8');
  }
  return open;
}
