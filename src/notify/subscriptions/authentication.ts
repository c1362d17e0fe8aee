/**
 * SOL013 SubscriptionAuthentication: how Bosun authenticates to the subscriber's callback.
 * The schema validates the shape; `checkAuthentication` what a schema cannot say clearly: the
 * parameters each listed authType needs (400 naming them), no parameters for an unlisted type,
 * usable PEM material for TLS_CERT, and token endpoints Bosun may call (outbound policy, 422).
 *
 * OAUTH2_CLIENT_CERT follows SOL013 v3.5.1 (`paramsOauth2ClientCert`: clientId, certificateRef
 * {type, value}, tokenEndpoint). TLS_CERT is a Bosun extension: `paramsTlsCert` carries the client
 * certificate, its private key and optionally the CA that signs the subscriber's server
 * certificate (PEM). The whole object is sealed at rest and never returned.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { type Static, Type } from '@sinclair/typebox';
import { ApiError } from '../../http/sol013/problem.ts';
import type { OutboundPolicy } from '../../net/address-policy.ts';
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

/** The parameters object each authType needs, and its mandatory fields: data, not branches. */
const REQUIRED_PARAMS: Record<AuthType, { params: keyof SubscriptionAuthentication; fields: string[] }> = {
  BASIC: { params: 'paramsBasic', fields: ['userName', 'password'] },
  OAUTH2_CLIENT_CREDENTIALS: {
    params: 'paramsOauth2ClientCredentials',
    fields: ['clientId', 'clientPassword', 'tokenEndpoint'],
  },
  OAUTH2_CLIENT_CERT: {
    params: 'paramsOauth2ClientCert',
    fields: ['clientId', 'certificateRef', 'tokenEndpoint'],
  },
  TLS_CERT: { params: 'paramsTlsCert', fields: ['certificate', 'privateKey'] },
};

function checkParams(auth: SubscriptionAuthentication): void {
  for (const [type, { params, fields }] of Object.entries(REQUIRED_PARAMS) as [
    AuthType,
    (typeof REQUIRED_PARAMS)[AuthType],
  ][]) {
    const given = auth[params] as Record<string, unknown> | undefined;
    if (!auth.authType.includes(type)) {
      if (given !== undefined) {
        throw new ApiError(400, `authentication.${params} is given but authType does not list ${type}.`);
      }
      continue;
    }
    const missing = fields.filter((f) => given?.[f] === undefined);
    if (missing.length) {
      throw new ApiError(400, `authentication: authType ${type} needs ${params} with ${missing.join(', ')}.`);
    }
  }
}

function checkTlsMaterial(params: NonNullable<SubscriptionAuthentication['paramsTlsCert']>): void {
  const where = 'authentication.paramsTlsCert';
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(params.certificate ?? '');
  } catch {
    throw new ApiError(400, `${where}.certificate is not a PEM X.509 certificate.`);
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(params.privateKey ?? '');
  } catch {
    throw new ApiError(400, `${where}.privateKey is not an unencrypted PEM private key.`);
  }
  if (!certificate.checkPrivateKey(key)) {
    throw new ApiError(400, `${where}.privateKey does not belong to ${where}.certificate.`);
  }
  if (params.caCertificate !== undefined) {
    try {
      new X509Certificate(params.caCertificate);
    } catch {
      throw new ApiError(400, `${where}.caCertificate is not a PEM X.509 certificate.`);
    }
  }
}

/** 400 for missing or contradictory parameters or unusable TLS material; 422 for a refused token endpoint. */
export async function checkAuthentication(
  auth: SubscriptionAuthentication | undefined,
  policy: OutboundPolicy,
): Promise<void> {
  if (!auth) return;
  checkParams(auth);
  if (auth.paramsTlsCert) checkTlsMaterial(auth.paramsTlsCert);
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
