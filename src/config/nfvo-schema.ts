/**
 * The `nfvo` configuration keys: which NFVO grants the LCM operations (the local one in this
 * process, or an external one over SOL003 /grant/v1) and how Bosun reaches and authenticates to
 * the external one. Its own file so the schema's other sections stay short.
 */
import { Type } from '@sinclair/typebox';
import { secret } from './secret.ts';

const file = (description: string) => Type.String({ default: '', description });

export const NfvoConfigSchema = Type.Object(
  {
    mode: Type.Union([Type.Literal('local'), Type.Literal('external')], {
      default: 'local',
      description:
        'local: Bosun grants its own operations; external: it asks the NFVO at nfvo.external.apiRoot (SOL003 granting) and fetches the packages it lacks from it',
    }),
    external: Type.Object(
      {
        apiRoot: Type.String({
          default: '',
          description:
            'the NFVO API root, e.g. https://nfvo.example:9443 (it must be allowed by outbound.allow when private)',
        }),
        grantApiVersion: Type.String({
          default: '1.4.0',
          pattern: '^1\\.[0-9]+\\.[0-9]+$',
          description: 'Version header of the /grant/v1 calls',
        }),
        vnfpkgmApiVersion: Type.String({
          default: '2.1.0',
          pattern: '^2\\.[0-9]+\\.[0-9]+$',
          description: 'Version header of the /vnfpkgm/v2 calls (packages fetched from the NFVO)',
        }),
        packageTimeoutMs: Type.Integer({
          minimum: 1000,
          default: 600000,
          description:
            'longest wait for a package fetched from the NFVO to be onboarded when an instance is created',
        }),
        timeoutMs: Type.Integer({
          minimum: 100,
          default: 20000,
          description: 'one call to the NFVO (or its token endpoint) silent this long fails',
        }),
        grantTimeoutMs: Type.Integer({
          minimum: 100,
          default: 600000,
          description: 'longest wait for an asynchronous grant (202, then polling its Location)',
        }),
        pollIntervalMs: Type.Integer({
          minimum: 10,
          default: 2000,
          description: 'wait between polls of an asynchronous grant when the NFVO sends no Retry-After',
        }),
        maxResponseBytes: Type.Integer({
          minimum: 4096,
          default: 1048576,
          description: 'largest JSON answer read from the NFVO (a grant, a package list)',
        }),
        caFile: file(
          'PEM CA bundle trusted for the NFVO (and token endpoint) certificate; empty: the system store',
        ),
        auth: Type.Object(
          {
            type: Type.Union(
              [Type.Literal('none'), Type.Literal('oauth2'), Type.Literal('mtls'), Type.Literal('basic')],
              {
                default: 'none',
                description:
                  'oauth2: client credentials token (client secret, or certFile/keyFile for RFC 8705); mtls: client certificate; basic: user name and password',
              },
            ),
            tokenEndpoint: Type.String({ default: '', description: 'oauth2: the token endpoint URL' }),
            clientId: Type.String({ default: '', description: 'oauth2: the client id' }),
            clientSecret: secret(Type.String({ default: '', description: 'oauth2: the client secret' })),
            clientSecretFile: file('oauth2: file holding the client secret (instead of clientSecret)'),
            userName: Type.String({ default: '', description: 'basic: the user name' }),
            password: secret(Type.String({ default: '', description: 'basic: the password' })),
            passwordFile: file('basic: file holding the password (instead of password)'),
            certFile: file('mtls (or oauth2 with a client certificate): PEM client certificate'),
            keyFile: file('mtls (or oauth2 with a client certificate): PEM private key of certFile'),
          },
          { additionalProperties: false, default: {} },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);
