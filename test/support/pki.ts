/**
 * A throw-away PKI for signature tests, made with the `openssl` CLI in a temp dir: a trusted
 * CA, a signing certificate it issued, an expired signing certificate, and an untrusted CA with
 * its own signer. `signManifest` produces the PEM CMS block of SOL004 security option 1.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOpensslCa, type Issued } from './openssl-ca.ts';

export interface Signer {
  certPem: string;
  certFile: string;
  keyFile: string;
}

export interface TestPki {
  dir: string;
  caPem: string;
  signer: Signer;
  expiredSigner: Signer;
  untrustedCaPem: string;
  untrustedSigner: Signer;
  /** Detached (default) or attached CMS over `text`, as PEM ("-----BEGIN CMS-----…"). */
  /** `withoutCertificates`: leave the signer certificate out of the CMS (it then comes from the package). */
  sign(
    text: string | Buffer,
    signer: Signer,
    options?: { attached?: boolean; withoutCertificates?: boolean; withoutAttributes?: boolean },
  ): string;
  cleanup(): void;
}

const SIGNER_EXT = 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n';
const CA_KEY_USAGE = 'critical,keyCertSign,cRLSign';

export function createTestPki(): TestPki {
  const pki = createOpensslCa('bosun-pki-', 'rsa');
  const { dir, openssl } = pki;
  const asSigner = ({ cert, certFile, keyFile }: Issued): Signer => ({ certPem: cert, certFile, keyFile });
  const issue = (name: string, cn: string, ca: string, days: number) =>
    asSigner(pki.issue(name, { cn, ca, days, extensions: SIGNER_EXT }));
  const caPem = pki.ca('ca', { cn: 'Bosun Test CA', days: 30, keyUsage: CA_KEY_USAGE }).cert;
  const untrustedCaPem = pki.ca('rogue', { cn: 'Rogue CA', days: 30, keyUsage: CA_KEY_USAGE }).cert;
  let n = 0;
  return {
    dir,
    caPem,
    untrustedCaPem,
    signer: issue('signer', 'Bosun Test Signer', 'ca', 10),
    expiredSigner: issue('expired', 'Bosun Expired Signer', 'ca', -1),
    untrustedSigner: issue('rogue-signer', 'Rogue Signer', 'rogue', 10),
    sign(text, signer, options = {}) {
      const input = join(dir, `content-${++n}.txt`);
      writeFileSync(input, text);
      const args = [
        'cms',
        '-sign',
        '-binary',
        '-in',
        input,
        '-signer',
        signer.certFile,
        '-inkey',
        signer.keyFile,
        '-outform',
        'PEM',
      ];
      // openssl cms signs detached by default; -nodetach embeds the content.
      if (options.attached) args.push('-nodetach');
      if (options.withoutCertificates) args.push('-nocerts');
      if (options.withoutAttributes) args.push('-noattr');
      return openssl(...args).toString('utf8');
    },
    cleanup: pki.cleanup,
  };
}
