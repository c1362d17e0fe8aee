/**
 * The SOL013 SubscriptionAuthentication a subscriber gives, read into what delivery does with it:
 *
 * - BASIC: `paramsBasic {userName, password}` → `Authorization: Basic` on every call.
 * - OAUTH2_CLIENT_CREDENTIALS: `paramsOauth2ClientCredentials {clientId, clientPassword,
 *   tokenEndpoint}` → a token from the endpoint (client credentials grant, the client
 *   authenticated with HTTP Basic), sent as `Authorization: Bearer`.
 * - OAUTH2_CLIENT_CERT (SOL013 v3): `paramsOauth2ClientCert {clientId, certificateRef {type,
 *   value}, tokenEndpoint}` → the token is requested over mutual TLS with the client certificate
 *   (RFC 8705), and the callback is called with that certificate and the token.
 * - TLS_CERT: the callback is called over mutual TLS with the client certificate.
 *
 * SOL013 identifies the certificate only by reference; the certificate and its key themselves
 * come in the Bosun extension `paramsTlsCert {certificate, privateKey, caCertificate?}` (PEM,
 * see subscriptions/authentication.ts, which validates requests), listed with TLS_CERT.
 * `caCertificate` is the CA that issued the receiver's (and token endpoint's) server
 * certificate, for receivers with a private CA. With certificateRef type `x5t#S256`, its value
 * must be the SHA-256 thumbprint of the certificate.
 *
 * Everything here is secret: it is sealed at rest and never logged or returned.
 */
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';

export interface TlsMaterial {
  /** PEM certificate (chain) and key presented to the server; absent when only a CA is given. */
  cert?: string;
  key?: string;
  /** PEM CA(s) trusted for the server certificate, instead of the system store. */
  ca?: string;
}

export type HeaderAuth =
  | { kind: 'none' }
  | { kind: 'basic'; userName: string; password: string }
  | { kind: 'oauth2'; tokenEndpoint: string; clientId: string; clientPassword?: string };

export interface DeliveryAuth {
  header: HeaderAuth;
  tls: TlsMaterial | undefined;
}

export const NO_AUTH: DeliveryAuth = { header: { kind: 'none' }, tls: undefined };

/** The authentication parameters cannot be used; the message says which and why. */
export class AuthenticationParamsError extends Error {
  override name = 'AuthenticationParamsError';
}

const AUTH_TYPES = ['BASIC', 'OAUTH2_CLIENT_CREDENTIALS', 'OAUTH2_CLIENT_CERT', 'TLS_CERT'];

type Params = Record<string, unknown>;

function params(auth: Params, name: string, fields: string[], type: string): Record<string, string> {
  const given = auth[name];
  const object = given !== null && typeof given === 'object' ? (given as Params) : {};
  const missing = fields.filter((f) => typeof object[f] !== 'string' || object[f] === '');
  if (given === undefined || missing.length) {
    throw new AuthenticationParamsError(
      `authentication: ${type} needs ${name} with ${(missing.length ? missing : fields).join(', ')}`,
    );
  }
  return object as Record<string, string>;
}

function httpUrl(text: string, what: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AuthenticationParamsError(`authentication: ${what} is not an absolute URI`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AuthenticationParamsError(`authentication: ${what} must be an http or https URI`);
  }
  return url.href;
}

function tlsMaterial(auth: Params, needsClientCert: string | undefined): TlsMaterial | undefined {
  const given = auth.paramsTlsCert as Params | undefined;
  if (given === undefined) {
    if (needsClientCert) {
      throw new AuthenticationParamsError(
        `authentication: ${needsClientCert} needs paramsTlsCert with certificate and privateKey (PEM), the Bosun extension carrying the client certificate`,
      );
    }
    return undefined;
  }
  const text = (name: string) => {
    const value = given[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') {
      throw new AuthenticationParamsError(`authentication: paramsTlsCert.${name} must be a PEM string`);
    }
    return value;
  };
  const cert = text('certificate');
  const key = text('privateKey');
  const ca = text('caCertificate');
  if ((cert === undefined) !== (key === undefined) || (needsClientCert && cert === undefined)) {
    throw new AuthenticationParamsError(
      'authentication: paramsTlsCert needs both certificate and privateKey (PEM)',
    );
  }
  if (cert !== undefined && key !== undefined) checkKeyPair(cert, key);
  if (ca !== undefined) certificate(ca, 'caCertificate');
  return { cert, key, ca };
}

function certificate(pem: string, name: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw new AuthenticationParamsError(`authentication: paramsTlsCert.${name} is not a PEM certificate`);
  }
}

export function checkKeyPair(certPem: string, keyPem: string): void {
  const cert = certificate(certPem, 'certificate');
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw new AuthenticationParamsError(
      'authentication: paramsTlsCert.privateKey is not an unencrypted PEM private key',
    );
  }
  if (!cert.checkPrivateKey(key)) {
    throw new AuthenticationParamsError(
      'authentication: paramsTlsCert.privateKey is not the key of paramsTlsCert.certificate',
    );
  }
}

/** base64url SHA-256 of the certificate's DER: the `x5t#S256` of RFC 8705. */
export function certificateThumbprint(certPem: string): string {
  return createHash('sha256').update(new X509Certificate(certPem).raw).digest('base64url');
}

/**
 * Reads and checks a SubscriptionAuthentication (plaintext). Throws AuthenticationParamsError
 * with a message for the subscriber when it cannot be used.
 */
export function parseAuthentication(auth: Params | undefined): DeliveryAuth {
  if (auth === undefined) return NO_AUTH;
  const types = auth.authType;
  if (!Array.isArray(types) || types.length === 0) {
    throw new AuthenticationParamsError('authentication: authType must list at least one type');
  }
  const unknown = types.filter((t) => !AUTH_TYPES.includes(t as string));
  if (unknown.length) {
    throw new AuthenticationParamsError(
      `authentication: unknown authType ${unknown.map((t) => JSON.stringify(t)).join(', ')} (known: ${AUTH_TYPES.join(', ')})`,
    );
  }
  const has = (type: string) => types.includes(type);
  const certType = has('OAUTH2_CLIENT_CERT')
    ? 'OAUTH2_CLIENT_CERT'
    : has('TLS_CERT')
      ? 'TLS_CERT'
      : undefined;
  const tls = tlsMaterial(auth, certType);
  // One Authorization header: OAuth 2.0 (the stronger) when listed, else Basic.
  let header: HeaderAuth = { kind: 'none' };
  if (has('OAUTH2_CLIENT_CERT')) {
    const p = params(auth, 'paramsOauth2ClientCert', ['clientId', 'tokenEndpoint'], 'OAUTH2_CLIENT_CERT');
    checkCertificateRef(p.certificateRef as unknown, tls?.cert as string);
    header = {
      kind: 'oauth2',
      clientId: p.clientId,
      tokenEndpoint: httpUrl(p.tokenEndpoint, 'tokenEndpoint'),
    };
  } else if (has('OAUTH2_CLIENT_CREDENTIALS')) {
    const p = params(
      auth,
      'paramsOauth2ClientCredentials',
      ['clientId', 'clientPassword', 'tokenEndpoint'],
      'OAUTH2_CLIENT_CREDENTIALS',
    );
    header = {
      kind: 'oauth2',
      clientId: p.clientId,
      clientPassword: p.clientPassword,
      tokenEndpoint: httpUrl(p.tokenEndpoint, 'tokenEndpoint'),
    };
  } else if (has('BASIC')) {
    const p = params(auth, 'paramsBasic', ['userName', 'password'], 'BASIC');
    header = { kind: 'basic', userName: p.userName, password: p.password };
  }
  return { header, tls };
}

function checkCertificateRef(ref: unknown, certPem: string): void {
  if (ref === undefined) return;
  const r = ref as Params;
  if (ref === null || typeof ref !== 'object' || typeof r.type !== 'string' || typeof r.value !== 'string') {
    throw new AuthenticationParamsError(
      'authentication: paramsOauth2ClientCert.certificateRef needs type and value strings',
    );
  }
  if (r.type.toLowerCase() === 'x5t#s256' && r.value !== certificateThumbprint(certPem)) {
    throw new AuthenticationParamsError(
      'authentication: paramsOauth2ClientCert.certificateRef (x5t#S256) does not match paramsTlsCert.certificate',
    );
  }
}

/** The authType list, for display (no secret). */
export function authTypesOf(auth: Params | undefined): string[] {
  return Array.isArray(auth?.authType) ? (auth.authType as string[]) : [];
}
