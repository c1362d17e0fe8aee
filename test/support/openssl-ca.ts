/**
 * Certificate authorities for tests, made with the `openssl` CLI in a temp dir: real keys and
 * certificates made when the test runs (nothing committed that could expire). The package
 * signature PKI (pki.ts) and the mutual-TLS delivery PKI (notify/delivery/tls-pki.ts) are built
 * on it; they differ only in key type, lifetimes and extensions.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.ts';

export interface Issued {
  cert: string;
  key: string;
  certFile: string;
  keyFile: string;
}

/** RSA where the code under test must handle RSA signatures; EC P-256 where any key will do (faster). */
export type KeyType = 'rsa' | 'ec';

const NEW_KEY: Record<KeyType, string[]> = {
  rsa: ['-newkey', 'rsa:2048', '-nodes'],
  ec: ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
};

export interface OpensslCa {
  dir: string;
  openssl(...args: string[]): Buffer;
  /** A self-signed CA, `<name>.pem` and `<name>.key`. */
  ca(name: string, options: { cn?: string; days: number; keyUsage: string }): Issued;
  /**
   * A certificate issued by the CA `ca` with the given extensions (a negative `days` gives a
   * notAfter in the past: an expired certificate without faking the clock).
   */
  issue(name: string, options: { cn?: string; ca: string; days: number; extensions: string }): Issued;
  cleanup(): void;
}

export function createOpensslCa(prefix: string, keyType: KeyType): OpensslCa {
  const dir = tempDir(prefix);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const newKey = NEW_KEY[keyType];
  const issued = (name: string): Issued => {
    const certFile = join(dir, `${name}.pem`);
    const keyFile = join(dir, `${name}.key`);
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile, keyFile };
  };
  return {
    dir,
    openssl,
    ca(name, { cn = name, days, keyUsage }) {
      openssl(
        'req',
        '-x509',
        ...newKey,
        '-keyout',
        `${name}.key`,
        '-out',
        `${name}.pem`,
        '-subj',
        `/CN=${cn}`,
        '-days',
        String(days),
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        `keyUsage=${keyUsage}`,
      );
      return issued(name);
    },
    issue(name, { cn = name, ca, days, extensions }) {
      openssl('req', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
      writeFileSync(join(dir, `${name}.ext`), extensions);
      openssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        `${ca}.pem`,
        '-CAkey',
        `${ca}.key`,
        '-set_serial',
        String(Math.floor(Math.random() * 1e9)),
        '-days',
        String(days),
        '-extfile',
        `${name}.ext`,
        '-out',
        `${name}.pem`,
      );
      return issued(name);
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
