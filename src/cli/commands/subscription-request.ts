/**
 * The SOL subscription request of `bosun subscription create`, from its flags: the callback, the
 * notifications filter (a JSON file and/or --notification-type), the verbosity, and the SOL013
 * authentication Bosun uses towards the callback. The authentication types follow from the
 * parameters given (--auth-type names them when that is not enough); the server checks the rest.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { collect } from '../key-values.ts';
import { CliError } from '../output.ts';
import { readJsonObject } from './lcm-common.ts';

export interface SubscriptionFlags {
  requestFile?: string;
  callbackUri?: string;
  filterFile?: string;
  notificationType: string[];
  verbosity?: string;
  authType: string[];
  basicUser?: string;
  basicPassword?: string;
  oauth2ClientId?: string;
  oauth2ClientSecret?: string;
  oauth2TokenEndpoint?: string;
  tlsCert?: string;
  tlsKey?: string;
  tlsCa?: string;
}

type Body = Record<string, unknown>;

export function withSubscriptionFlags(command: Command): Command {
  return command
    .option('--callback-uri <uri>', 'where Bosun sends the notifications')
    .option('--filter-file <file>', 'the notifications filter as a JSON object (- for stdin)')
    .option('--notification-type <type>', 'only this notification type (repeat)', collect, [] as string[])
    .option('--verbosity <FULL|SHORT>', 'LCM v2 only: FULL (default) or SHORT notifications')
    .option('--basic-user <name>', 'BASIC: the user name Bosun sends to the callback')
    .option('--basic-password <password>', 'BASIC: its password')
    .option('--oauth2-client-id <id>', 'OAUTH2_CLIENT_CREDENTIALS or OAUTH2_CLIENT_CERT: client id')
    .option('--oauth2-client-secret <secret>', 'OAUTH2_CLIENT_CREDENTIALS: client password')
    .option('--oauth2-token-endpoint <uri>', 'OAUTH2_*: the token endpoint Bosun gets tokens from')
    .option('--tls-cert <pem-file>', 'TLS_CERT or OAUTH2_CLIENT_CERT: client certificate Bosun presents')
    .option('--tls-key <pem-file>', 'its private key (unencrypted PEM)')
    .option('--tls-ca <pem-file>', "CA certificate(s) to verify the callback's server with")
    .option(
      '--auth-type <type>',
      'BASIC, OAUTH2_CLIENT_CREDENTIALS, OAUTH2_CLIENT_CERT or TLS_CERT (repeat; default: from the parameters given)',
      collect,
      [] as string[],
    )
    .option(
      '--request-file <file>',
      'the whole subscription request as JSON (- for stdin; keeps secrets off the command line); flags override its fields',
    );
}

function readPem(file: string, option: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliError(`${option} ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** SOL013's certificateRef of a certificate: its SHA-256 thumbprint (x5t#S256). */
function certificateRef(pem: string, file: string): { type: string; value: string } {
  try {
    const raw = new X509Certificate(pem).raw;
    return { type: 'x5t#S256', value: createHash('sha256').update(raw).digest('base64url') };
  } catch {
    throw new CliError(`--tls-cert ${file}: not a PEM X.509 certificate`);
  }
}

/** Only the fields that were given. */
const given = (fields: Record<string, unknown>): Body | undefined => {
  const present = Object.entries(fields).filter(([, v]) => v !== undefined);
  return present.length ? Object.fromEntries(present) : undefined;
};

/** SubscriptionAuthentication from the flags, over the request file's; undefined when none. */
function authentication(flags: SubscriptionFlags, from: Body | undefined): Body | undefined {
  const auth: Body = { ...from };
  const basic = given({ userName: flags.basicUser, password: flags.basicPassword });
  const tls = given({
    certificate: flags.tlsCert && readPem(flags.tlsCert, '--tls-cert'),
    privateKey: flags.tlsKey && readPem(flags.tlsKey, '--tls-key'),
    caCertificate: flags.tlsCa && readPem(flags.tlsCa, '--tls-ca'),
  });
  const types = new Set(flags.authType.map((t) => t.toUpperCase()));
  const inferred = new Set<string>();
  if (basic) {
    auth.paramsBasic = basic;
    inferred.add('BASIC');
  }
  if (flags.oauth2ClientId || flags.oauth2ClientSecret || flags.oauth2TokenEndpoint) {
    // A secret means client credentials; a client certificate and no secret, the certificate.
    const byCert = types.has('OAUTH2_CLIENT_CERT') || (!flags.oauth2ClientSecret && tls?.certificate);
    if (byCert) {
      auth.paramsOauth2ClientCert = given({
        clientId: flags.oauth2ClientId,
        certificateRef: tls?.certificate
          ? certificateRef(tls.certificate as string, flags.tlsCert ?? '')
          : undefined,
        tokenEndpoint: flags.oauth2TokenEndpoint,
      });
      inferred.add('OAUTH2_CLIENT_CERT');
    } else {
      auth.paramsOauth2ClientCredentials = given({
        clientId: flags.oauth2ClientId,
        clientPassword: flags.oauth2ClientSecret,
        tokenEndpoint: flags.oauth2TokenEndpoint,
      });
      inferred.add('OAUTH2_CLIENT_CREDENTIALS');
    }
  }
  if (tls) {
    auth.paramsTlsCert = tls;
    if (tls.certificate && !inferred.has('OAUTH2_CLIENT_CERT')) inferred.add('TLS_CERT');
  }
  const authType = types.size
    ? [...types]
    : [...new Set([...((auth.authType as string[]) ?? []), ...inferred])];
  if (authType.length) auth.authType = authType;
  if (Object.keys(auth).length === 0) return undefined;
  if (!auth.authType) {
    throw new CliError(
      'give --auth-type: --tls-ca alone names no way to authenticate (add --basic-user, --oauth2-… or --tls-cert)',
    );
  }
  return auth;
}

/** The request body: --request-file's object, then each flag given over it. */
export async function subscriptionRequest(flags: SubscriptionFlags): Promise<Body> {
  const body: Body = flags.requestFile ? await readJsonObject(flags.requestFile) : {};
  if (flags.callbackUri !== undefined) body.callbackUri = flags.callbackUri;
  if (body.callbackUri === undefined)
    throw new CliError('give --callback-uri (or a --request-file with callbackUri)');
  let filter = body.filter as Body | undefined;
  if (flags.filterFile) filter = await readJsonObject(flags.filterFile, '--filter-file');
  if (flags.notificationType.length) filter = { ...filter, notificationTypes: flags.notificationType };
  if (filter !== undefined) body.filter = filter;
  if (flags.verbosity !== undefined) body.verbosity = flags.verbosity.toUpperCase();
  const auth = authentication(flags, body.authentication as Body | undefined);
  if (auth) body.authentication = auth;
  return body;
}
