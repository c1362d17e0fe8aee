/**
 * A throw-away PKI for signature tests, made with the `openssl` CLI in a temp dir: a trusted
 * CA, a signing certificate it issued, an expired signing certificate, and an untrusted CA with
 * its own signer. `signManifest` produces the PEM CMS block of SOL004 security option 1.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

export function createTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-pki-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  writeFileSync(join(dir, 'signer.ext'), SIGNER_EXT);
  const ca = (name: string, cn: string) => {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-subj',
      `/CN=${cn}`,
      '-days',
      '30',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    return readFileSync(join(dir, `${name}.pem`), 'utf8');
  };
  const issue = (name: string, cn: string, caName: string, days: number): Signer => {
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      `/CN=${cn}`,
    );
    // A negative -days gives a notAfter in the past: an expired certificate without faking the clock.
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${caName}.pem`,
      '-CAkey',
      `${caName}.key`,
      '-set_serial',
      String(Math.floor(Math.random() * 1e9)),
      '-out',
      `${name}.pem`,
      '-days',
      String(days),
      '-extfile',
      'signer.ext',
    );
    return {
      certPem: readFileSync(join(dir, `${name}.pem`), 'utf8'),
      certFile: join(dir, `${name}.pem`),
      keyFile: join(dir, `${name}.key`),
    };
  };
  const caPem = ca('ca', 'Bosun Test CA');
  const untrustedCaPem = ca('rogue', 'Rogue CA');
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
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
