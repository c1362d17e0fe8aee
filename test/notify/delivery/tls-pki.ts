/**
 * A throw-away PKI for the mutual-TLS delivery tests, made with the `openssl` CLI: a CA, a server
 * certificate it issued for 127.0.0.1 and localhost, a client certificate it issued, and a
 * client certificate from another CA (not trusted by the receiver).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Pem {
  cert: string;
  key: string;
}

export interface TlsPki {
  ca: string;
  server: Pem;
  client: Pem;
  /** Issued by another CA: a receiver trusting `ca` refuses it. */
  strangerClient: Pem;
  cleanup(): void;
}

export function createTlsPki(): TlsPki {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-mtls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const ca = (name: string) => {
    openssl(
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.pem`,
      '-subj',
      `/CN=${name}`,
      '-days',
      '2',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign',
    );
  };
  const issue = (name: string, caName: string, extensions: string): Pem => {
    openssl('req', ...newKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    writeFileSync(join(dir, `${name}.ext`), extensions);
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${caName}.pem`,
      '-CAkey',
      `${caName}.key`,
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
    return { cert: read(`${name}.pem`), key: read(`${name}.key`) };
  };
  ca('test-ca');
  ca('stranger-ca');
  const server = issue(
    'receiver',
    'test-ca',
    'basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n',
  );
  const clientExt = 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n';
  const client = issue('bosun-client', 'test-ca', clientExt);
  const strangerClient = issue('stranger-client', 'stranger-ca', clientExt);
  return {
    ca: read('test-ca.pem'),
    server,
    client,
    strangerClient,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
