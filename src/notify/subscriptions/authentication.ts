/**
 * SOL013 SubscriptionAuthentication: how Bosun authenticates to the subscriber's callback.
 * The schema validates the shape; `checkAuthentication` what a schema cannot say clearly: the
 * parameters each listed authType needs (400 naming them), no parameters for an unlisted type,
 * usable PEM material for TLS_CERT, and token endpoints Bosun may call (outbound policy, 422).
 *
 * OAUTH2_CLIENT_CERT follows SOL013 v3.5.1 (`paramsOauth2ClientCert`: clientId, certificateRef
 * {type, value}, tokenEndpoint). SOL013 names certificates only by reference, so the Bosun
 * extension `paramsTlsCert` carries the client certificate and its private key (PEM) for
 * TLS_CERT and OAUTH2_CLIENT_CERT, and optionally the CA of the subscriber's server (alone: a
 * receiver with a private CA). The whole object is sealed at rest and never returned; delivery
 * reads it (notify/delivery/authentication.ts).
 */
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { type Static, Type } from '@sinclair/typebox';
import type { OutboundPolicy } from '../../net/address-policy.ts';
import { ApiError } from '../../sol/problem.ts';
import { checkOutboundUri } from './callback-uri.ts';
import { stringEnum } from './schema-helpers.ts';

export const AUTH_TYPES = ['BASIC', 'OAUTH2_CLIENT_CREDENTIALS', 'OAUTH2_CLIENT_CERT', 'TLS_CERT'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

const str = (description: string) => Type.String({ minLength: 1, maxLength: 4096, description });
const pem = (description: string) => Type.String({ minLength: 1, maxLength: 65536, description });

export const SubscriptionAuthenticationSchema = Type.Object(
  {
    authType: Type.Array(stringEnum(AUTH_TYPES), { minItems: 1, uniqueItems: true }),
    paramsBasic: Type.Optional(
      Type.Object(
        { userName: Type.Optional(str('User name')), password: Type.Optional(str('Password')) },
        { additionalProperties: false },
      ),
    ),
    paramsOauth2ClientCredentials: Type.Optional(
      Type.Object(
        {
          clientId: Type.Optional(str('Client identifier at the token endpoint')),
          clientPassword: Type.Optional(str('Client password')),
          tokenEndpoint: Type.Optional(str('Absolute http(s) URI of the token endpoint')),
        },
        { additionalProperties: false },
      ),
    ),
    paramsOauth2ClientCert: Type.Optional(
      Type.Object(
        {
          clientId: Type.Optional(str('Client identifier at the token endpoint')),
          certificateRef: Type.Optional(
            Type.Object(
              {
                type: str('Type of the reference, e.g. x5t#S256'),
                value: str('The certificate reference, e.g. the base64url SHA-256 thumbprint'),
              },
              { additionalProperties: false },
            ),
          ),
          tokenEndpoint: Type.Optional(str('Absolute http(s) URI of the token endpoint')),
        },
        { additionalProperties: false },
      ),
    ),
    paramsTlsCert: Type.Optional(
      Type.Object(
        {
          certificate: Type.Optional(pem('Client certificate (PEM), chain allowed')),
          privateKey: Type.Optional(pem('Private key of the client certificate (PEM, unencrypted)')),
          caCertificate: Type.Optional(pem("CA certificate(s) (PEM) to verify the subscriber's server")),
        },
        { additionalProperties: false, description: 'Bosun extension: mutual TLS to the callback' },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'SOL013 SubscriptionAuthentication (sealed at rest, never returned)',
  },
);

export type SubscriptionAuthentication = Static<typeof SubscriptionAuthenticationSchema>;

type ParamsName = Exclude<keyof SubscriptionAuthentication, 'authType'>;

/** What each authType needs: data, not branches. OAUTH2_CLIENT_CERT's certificate is in paramsTlsCert. */
const NEEDS: readonly { type: AuthType; params: ParamsName; fields: readonly string[] }[] = [
  { type: 'BASIC', params: 'paramsBasic', fields: ['userName', 'password'] },
  {
    type: 'OAUTH2_CLIENT_CREDENTIALS',
    params: 'paramsOauth2ClientCredentials',
    fields: ['clientId', 'clientPassword', 'tokenEndpoint'],
  },
  {
    type: 'OAUTH2_CLIENT_CERT',
    params: 'paramsOauth2ClientCert',
    fields: ['clientId', 'certificateRef', 'tokenEndpoint'],
  },
  { type: 'OAUTH2_CLIENT_CERT', params: 'paramsTlsCert', fields: ['certificate', 'privateKey'] },
  { type: 'TLS_CERT', params: 'paramsTlsCert', fields: ['certificate', 'privateKey'] },
];

/**
 * Parameters that only make sense with their authType ("shall be absent otherwise"). paramsTlsCert
 * is not among them: alone, its caCertificate verifies a receiver with a private CA.
 */
const OWNER: Partial<Record<ParamsName, AuthType>> = {
  paramsBasic: 'BASIC',
  paramsOauth2ClientCredentials: 'OAUTH2_CLIENT_CREDENTIALS',
  paramsOauth2ClientCert: 'OAUTH2_CLIENT_CERT',
};

function checkParams(auth: SubscriptionAuthentication): void {
  for (const [params, type] of Object.entries(OWNER) as [ParamsName, AuthType][]) {
    if (auth[params] !== undefined && !auth.authType.includes(type)) {
      throw new ApiError(400, `authentication.${params} is given but authType does not list ${type}.`);
    }
  }
  for (const { type, params, fields } of NEEDS) {
    if (!auth.authType.includes(type)) continue;
    const given = auth[params] as Record<string, unknown> | undefined;
    const missing = fields.filter((f) => given?.[f] === undefined);
    if (missing.length) {
      throw new ApiError(400, `authentication: authType ${type} needs ${params} with ${missing.join(', ')}.`);
    }
  }
}

const WHERE = 'authentication.paramsTlsCert';

function parseCertificate(pem: string, name: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw new ApiError(400, `${WHERE}.${name} is not a PEM X.509 certificate.`);
  }
}

/** The client certificate, when one is given (with its key). */
function checkTlsMaterial(
  params: NonNullable<SubscriptionAuthentication['paramsTlsCert']>,
): X509Certificate | undefined {
  if (params.caCertificate !== undefined) parseCertificate(params.caCertificate, 'caCertificate');
  if ((params.certificate === undefined) !== (params.privateKey === undefined)) {
    throw new ApiError(400, `${WHERE} needs both certificate and privateKey, or neither.`);
  }
  if (params.certificate === undefined || params.privateKey === undefined) return undefined;
  const certificate = parseCertificate(params.certificate, 'certificate');
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(params.privateKey);
  } catch {
    throw new ApiError(400, `${WHERE}.privateKey is not an unencrypted PEM private key.`);
  }
  if (!certificate.checkPrivateKey(key)) {
    throw new ApiError(400, `${WHERE}.privateKey is not the key of ${WHERE}.certificate.`);
  }
  return certificate;
}

/** An `x5t#S256` certificateRef must be the thumbprint of the certificate Bosun will present. */
function checkCertificateRef(
  auth: SubscriptionAuthentication,
  certificate: X509Certificate | undefined,
): void {
  const ref = auth.paramsOauth2ClientCert?.certificateRef;
  if (ref?.type.toLowerCase() !== 'x5t#s256' || !certificate) return;
  const thumbprint = createHash('sha256').update(certificate.raw).digest('base64url');
  if (ref.value !== thumbprint) {
    throw new ApiError(
      400,
      `authentication.paramsOauth2ClientCert.certificateRef (x5t#S256) is not the thumbprint of ${WHERE}.certificate (${thumbprint}).`,
    );
  }
}

/** 400 for missing or contradictory parameters or unusable TLS material; 422 for a refused token endpoint. */
export async function checkAuthentication(
  auth: SubscriptionAuthentication | undefined,
  policy: OutboundPolicy,
): Promise<void> {
  if (!auth) return;
  checkParams(auth);
  checkCertificateRef(auth, auth.paramsTlsCert && checkTlsMaterial(auth.paramsTlsCert));
  const endpoints = [
    ['paramsOauth2ClientCredentials', auth.paramsOauth2ClientCredentials?.tokenEndpoint],
    ['paramsOauth2ClientCert', auth.paramsOauth2ClientCert?.tokenEndpoint],
  ] as const;
  for (const [params, endpoint] of endpoints) {
    if (endpoint !== undefined) {
      await checkOutboundUri(`authentication.${params}.tokenEndpoint`, endpoint, policy);
    }
  }
}
