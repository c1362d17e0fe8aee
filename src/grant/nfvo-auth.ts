/**
 * How Bosun authenticates to an external NFVO, read from `nfvo.external` once at start: an OAuth
 * 2.0 client credentials token (client secret, or the client certificate as in RFC 8705), a
 * client certificate (mutual TLS), or Basic; plus the CA bundle the NFVO's certificate is checked
 * against. Secrets come from the configuration (masked by `bosun config show`) or from files,
 * and are only ever held in memory. A configuration that cannot work stops the start, naming
 * the key.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/errors.ts';
import type { Config } from '../config/load.ts';
import {
  AuthenticationParamsError,
  checkKeyPair,
  type DeliveryAuth,
  type HeaderAuth,
  type TlsMaterial,
} from '../notify/delivery/authentication.ts';

type External = Config['nfvo']['external'];

const KEY = 'nfvo.external';

function readText(path: string, key: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `${KEY}.${key}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
}

/** A secret given in the configuration or in a file (trailing newline dropped), not both. */
function secretOf(given: string, fromFile: string, key: string): string {
  if (given && fromFile) {
    throw new ConfigError(`${KEY}.auth: give ${key} or ${key}File, not both`);
  }
  return fromFile ? readText(fromFile, `auth.${key}File`).replace(/\r?\n$/, '') : given;
}

function required(value: string, key: string, type: string): string {
  if (!value) throw new ConfigError(`${KEY}.auth.${key}: required with auth.type ${type}`);
  return value;
}

function clientCertificate(auth: External['auth']): Pick<TlsMaterial, 'cert' | 'key'> | undefined {
  if (!auth.certFile && !auth.keyFile) return undefined;
  if (!auth.certFile || !auth.keyFile) {
    throw new ConfigError(
      `${KEY}.auth: certFile and keyFile go together (the client certificate and its key)`,
    );
  }
  const cert = readText(auth.certFile, 'auth.certFile');
  const key = readText(auth.keyFile, 'auth.keyFile');
  try {
    checkKeyPair(cert, key);
  } catch (err) {
    if (err instanceof AuthenticationParamsError)
      throw new ConfigError(
        `${KEY}.auth: ${err.message.replace(/^authentication: paramsTlsCert\.?/, '')} (certFile ${auth.certFile}, keyFile ${auth.keyFile})`,
      );
    throw err;
  }
  return { cert, key };
}

function httpsOrHttpUrl(text: string, key: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${KEY}.${key}: '${text}' is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`${KEY}.${key}: must be an http or https URL, got ${url.protocol}`);
  if (url.username || url.password)
    throw new ConfigError(`${KEY}.${key}: must not carry credentials (use ${KEY}.auth)`);
  return url.href.replace(/\/+$/, '');
}

export interface NfvoEndpoint {
  /** The API root without a trailing slash. */
  apiRoot: string;
  auth: DeliveryAuth;
}

/** Reads `nfvo.external` (mode external); throws ConfigError naming the key when it cannot work. */
export function nfvoEndpoint(external: External): NfvoEndpoint {
  if (!external.apiRoot) throw new ConfigError(`${KEY}.apiRoot: required with nfvo.mode external`);
  const apiRoot = httpsOrHttpUrl(external.apiRoot, 'apiRoot');
  const { auth } = external;
  const ca = external.caFile ? readText(external.caFile, 'caFile') : undefined;
  const cert = clientCertificate(auth);
  let header: HeaderAuth = { kind: 'none' };
  switch (auth.type) {
    case 'oauth2': {
      const clientSecret = secretOf(auth.clientSecret, auth.clientSecretFile, 'clientSecret');
      if (!clientSecret && !cert) {
        throw new ConfigError(
          `${KEY}.auth: oauth2 needs clientSecret (or clientSecretFile), or certFile and keyFile to authenticate the client with its certificate`,
        );
      }
      header = {
        kind: 'oauth2',
        tokenEndpoint: httpsOrHttpUrl(
          required(auth.tokenEndpoint, 'tokenEndpoint', 'oauth2'),
          'auth.tokenEndpoint',
        ),
        clientId: required(auth.clientId, 'clientId', 'oauth2'),
        ...(clientSecret ? { clientPassword: clientSecret } : {}),
      };
      break;
    }
    case 'basic':
      header = {
        kind: 'basic',
        userName: required(auth.userName, 'userName', 'basic'),
        password: required(secretOf(auth.password, auth.passwordFile, 'password'), 'password', 'basic'),
      };
      break;
    case 'mtls':
      if (!cert) throw new ConfigError(`${KEY}.auth: mtls needs certFile and keyFile`);
      break;
    case 'none':
      break;
  }
  if (cert && !apiRoot.startsWith('https:'))
    throw new ConfigError(`${KEY}.apiRoot: a client certificate needs an https NFVO, got ${apiRoot}`);
  const tls = cert || ca ? { ...cert, ...(ca ? { ca } : {}) } : undefined;
  return { apiRoot, auth: { header, tls } };
}
