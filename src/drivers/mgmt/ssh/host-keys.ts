/**
 * The SSH host-key policy: a node's key is checked before any credential is sent. `strict`
 * accepts only a key given (known hosts of the request, or the key pinned on the VNFC when it was
 * first reached); `accept-new` also accepts a node with no key on record and reports it so it is
 * pinned. A key that differs from the one on record is refused under both policies.
 */
import { createHash } from 'node:crypto';

export type HostKeyPolicy = 'strict' | 'accept-new';

/** OpenSSH's fingerprint of a host key blob: `SHA256:` and the unpadded base64 of its digest. */
export function fingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * A known host as written: a fingerprint (`SHA256:…`) or a public key line (`ssh-ed25519 AAAA…`,
 * optionally preceded by host names as in known_hosts); undefined when it is neither.
 */
export function knownFingerprint(written: string): string | undefined {
  const text = written.trim();
  if (/^SHA256:[A-Za-z0-9+/]{43}$/.test(text)) return text;
  const fields = text.split(/\s+/);
  const at = fields.findIndex((f) => /^(ssh-|ecdsa-|sk-)/.test(f));
  const blob = at >= 0 ? fields[at + 1] : undefined;
  if (!blob || !/^[A-Za-z0-9+/]+=*$/.test(blob)) return undefined;
  return fingerprint(Buffer.from(blob, 'base64'));
}

export type HostKeyVerdict =
  | { ok: true; fingerprint: string; learnt: boolean }
  | { ok: false; fingerprint: string; reason: string };

/** Whether the key `offered` by `host` is accepted, given the fingerprint on record (if any). */
export function judgeHostKey(
  policy: HostKeyPolicy,
  host: string,
  offered: Buffer,
  known: string | undefined,
): HostKeyVerdict {
  const seen = fingerprint(offered);
  if (known !== undefined) {
    if (known === seen) return { ok: true, fingerprint: seen, learnt: false };
    return {
      ok: false,
      fingerprint: seen,
      reason: `the host key of ${host} changed: it offered ${seen}, but ${known} is on record. The node may have been replaced or the connection intercepted; if the change is expected, give the new key in additionalParams.ssh.knownHosts`,
    };
  }
  if (policy === 'accept-new') return { ok: true, fingerprint: seen, learnt: true };
  return {
    ok: false,
    fingerprint: seen,
    reason: `the host key of ${host} (${seen}) is not known and the host-key policy is strict: give it in additionalParams.ssh.knownHosts, or use hostKeyPolicy accept-new to learn it on first contact`,
  };
}
