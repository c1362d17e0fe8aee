/**
 * A throw-away PKI for the mutual-TLS delivery tests, made with the `openssl` CLI: a CA, a server
 * certificate it issued for 127.0.0.1 and localhost, a client certificate it issued, and a
 * client certificate from another CA (not trusted by the receiver).
 */
import { createOpensslCa } from '../../support/openssl-ca.ts';

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
  const pki = createOpensslCa('bosun-mtls-', 'ec');
  const pem = ({ cert, key }: Pem): Pem => ({ cert, key });
  const ca = (name: string) => pki.ca(name, { days: 2, keyUsage: 'critical,keyCertSign' });
  const issue = (name: string, caName: string, extensions: string) =>
    pem(pki.issue(name, { ca: caName, days: 2, extensions }));
  const testCa = ca('test-ca');
  ca('stranger-ca');
  const server = issue(
    'receiver',
    'test-ca',
    'basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n',
  );
  const clientExt = 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n';
  const client = issue('bosun-client', 'test-ca', clientExt);
  const strangerClient = issue('stranger-client', 'stranger-ca', clientExt);
  return { ca: testCa.cert, server, client, strangerClient, cleanup: pki.cleanup };
}
