/**
 * `bosun package create|upload|list|show|update|delete|download|vnfd|artifact|manifest`: the
 * SOL005 VNF package management API of a running server (/vnfpkgm/v1), table or --json output.
 */
import type { Command } from 'commander';
import { ApiClient } from '../api-client/client.ts';
import { type ConnectionOptions, withConnectionOptions } from '../api-client/connection.ts';
import {
  createPackage,
  deletePackage,
  downloadTo,
  failureReason,
  getPackage,
  listPackages,
  patchPackage,
  uploadContent,
  uploadFromUri,
  type VnfPkgInfo,
  waitOnboarding,
} from '../api-client/vnf-packages.ts';
import { collect, keyValues } from '../key-values.ts';
import { CliError, emit, emitRecords, printJson, printTable, withIdOnly } from '../output.ts';

interface Common extends ConnectionOptions {
  json?: boolean;
  quiet?: boolean;
}

interface UpdateOptions extends Common {
  enable?: boolean;
  disable?: boolean;
  userData: string[];
  userDataDelete: string[];
  ifMatch?: string;
}

const say = (line: string) => process.stdout.write(line + '\n');

/** The onboarding state, saying when the last onboarding failed (CREATED again, with its reason). */
const onboarding = (p: VnfPkgInfo) =>
  p.onboardingFailureDetails ? `${p.onboardingState} (onboarding failed)` : p.onboardingState;

const states = (p: VnfPkgInfo) =>
  `onboarding ${onboarding(p)}, operational ${p.operationalState}, usage ${p.usageState}`;

/** Fields shown otherwise than as their JSON: the state with the failure, the failure's detail. */
const SHOWN: Record<string, (p: VnfPkgInfo) => string> = {
  onboardingState: onboarding,
  onboardingFailureDetails: failureReason,
};

function printPackage(p: VnfPkgInfo): void {
  for (const [key, value] of Object.entries(p)) {
    if (value === undefined || key === '_links') continue;
    const shown = SHOWN[key]?.(p) ?? (typeof value === 'object' ? JSON.stringify(value) : String(value));
    say(`${key.padEnd(24)} ${shown}`);
  }
}

const row = (p: VnfPkgInfo) => ({
  id: p.id,
  vnfdId: p.vnfdId,
  product: p.vnfProductName,
  version: p.vnfSoftwareVersion,
  onboarding: onboarding(p),
  operational: p.operationalState,
  usage: p.usageState,
});

/** A sub-command of `bosun package` with the connection options and --json. */
function sub(pkg: Command, spec: string, description: string): Command {
  return withConnectionOptions(pkg.command(spec).description(description)).option('--json', 'print JSON');
}

async function onboarded(api: ApiClient, id: string, timeout: number, json?: boolean): Promise<void> {
  const info = await waitOnboarding(api, id, timeout);
  if (info.onboardingState !== 'ONBOARDED') {
    const reason = failureReason(info);
    if (json) printJson({ ...info, failure: reason });
    throw new CliError(`package ${id} onboarding failed: ${reason}`);
  }
  emit(json, info, () => {
    say(`package ${id} ONBOARDED`);
    say(`vnfdId    ${info.vnfdId}`);
    say(`provider  ${info.vnfProvider}`);
    say(`product   ${info.vnfProductName} ${info.vnfSoftwareVersion ?? ''}`.trimEnd());
  });
}

function registerTransfers(pkg: Command): void {
  sub(pkg, 'upload <id> [zip]', 'upload package content: a local zip, or --uri for the server to fetch')
    .option('--uri <uri>', 'let the server fetch the package from this URI')
    .option('--user-name <user>', 'user name for --uri (HTTP basic auth)')
    .option('--password <password>', 'password for --uri')
    .option('--wait', 'follow onboarding to its end; exit 1 with the reason when it fails')
    .option('--timeout <seconds>', 'give up waiting after this many seconds', '600')
    .option('-q, --quiet', 'no progress bar')
    .action(async (id: string, zip: string | undefined, opts: Common & Record<string, string | boolean>) => {
      if (Boolean(zip) === Boolean(opts.uri)) throw new CliError('give either a zip file or --uri, not both');
      const timeout = Number(opts.timeout);
      if (!(timeout > 0)) throw new CliError(`--timeout expects a number of seconds, got '${opts.timeout}'`);
      const api = ApiClient.from(opts);
      if (zip) await uploadContent(api, id, zip, opts.quiet);
      else await uploadFromUri(api, id, opts.uri as string, opts.userName as string, opts.password as string);
      if (opts.wait) return onboarded(api, id, timeout, opts.json);
      emit(opts.json, { id, accepted: true }, () => say(`package ${id}: upload accepted`));
    });

  const download = (spec: string, description: string) =>
    sub(pkg, spec, description)
      .requiredOption('-o, --output <file>', 'file to write')
      .option('-q, --quiet', 'no progress bar');
  /** Fetches `rest` of package `id` into --output and says what was written. */
  const fetchTo = async (id: string, rest: string, accept: string, opts: Common & { output: string }) => {
    const saved = await downloadTo(ApiClient.from(opts), id, rest, opts.output, accept, opts.quiet);
    emit(opts.json, { output: opts.output, ...saved }, () =>
      say(`${opts.output}: ${saved.bytes} bytes, ${saved.contentType}`),
    );
  };

  download('download <id>', 'download the package content (the CSAR zip)').action(
    (id: string, opts: Common & { output: string }) =>
      fetchTo(id, '/package_content', 'application/zip', opts),
  );
  /** `rest` with SOL005's include_signatures flag when asked for. */
  const signed = (rest: string, opts: { includeSignatures?: boolean }) =>
    opts.includeSignatures ? `${rest}?include_signatures` : rest;
  const SIGNATURES = 'with the signature files and the certificate (a zip)';
  download('vnfd <id>', 'download the VNFD: zip, or text for a single-file VNFD')
    .option('--format <format>', 'zip | text', 'zip')
    .option('--include-signatures', SIGNATURES)
    .action(
      async (id: string, opts: Common & { output: string; format: string; includeSignatures?: boolean }) => {
        const accept = { zip: 'application/zip', text: 'text/plain' }[opts.format];
        if (!accept) throw new CliError(`--format must be zip or text, got '${opts.format}'`);
        await fetchTo(id, signed('/vnfd', opts), accept, opts);
      },
    );
  download('artifact <id> <path>', 'download one artifact of the package')
    .option('--include-signatures', SIGNATURES)
    .action(
      async (
        id: string,
        artifact: string,
        opts: Common & { output: string; includeSignatures?: boolean },
      ) => {
        const rest = `/artifacts/${artifact.split('/').map(encodeURIComponent).join('/')}`;
        await fetchTo(id, signed(rest, opts), '*/*', opts);
      },
    );
  download('manifest <id>', 'download the manifest')
    .option('--include-signatures', 'with its signatures (and certificate, as a zip)')
    .action(async (id: string, opts: Common & { output: string; includeSignatures?: boolean }) => {
      await fetchTo(id, signed('/manifest', opts), 'text/plain, application/zip', opts);
    });
}

export function registerPackageApi(pkg: Command): void {
  withIdOnly(sub(pkg, 'create', 'create a VNF package resource on the server (state CREATED)'))
    .option('--user-data <key=value>', 'user defined data (repeat for several)', collect, [] as string[])
    .action(async (opts: Common & { userData: string[] }) => {
      const data = opts.userData.length ? keyValues(opts.userData, '--user-data', 'text') : undefined;
      const p = await createPackage(ApiClient.from(opts), data);
      emitRecords(opts, p, () => say(`${p.id}  ${states(p)}`));
    });

  registerTransfers(pkg);

  withIdOnly(sub(pkg, 'list', 'list VNF packages (every page)'))
    .option('--filter <expr>', 'SOL013 attribute filter, e.g. (eq,operationalState,ENABLED)')
    .option('--all-fields', 'include every attribute')
    .option('--fields <list>', 'include these complex attributes')
    .option('--exclude-fields <list>', 'exclude these complex attributes')
    .action(
      async (
        opts: Common & { filter?: string; allFields?: boolean; fields?: string; excludeFields?: string },
      ) => {
        const query = new URLSearchParams();
        if (opts.filter) query.set('filter', opts.filter);
        if (opts.allFields) query.set('all_fields', '');
        if (opts.fields) query.set('fields', opts.fields);
        if (opts.excludeFields) query.set('exclude_fields', opts.excludeFields);
        const packages = await listPackages(ApiClient.from(opts), query);
        emitRecords(opts, packages, () => {
          if (packages.length === 0) say('no packages');
          else
            printTable(packages.map(row), [
              'id',
              'vnfdId',
              'product',
              'version',
              'onboarding',
              'operational',
              'usage',
            ]);
        });
      },
    );

  sub(pkg, 'show <id>', 'show one VNF package').action(async (id: string, opts: Common) => {
    const p = await getPackage(ApiClient.from(opts), id);
    emit(opts.json, p, () => printPackage(p));
  });

  sub(pkg, 'update <id>', 'enable/disable a package or change its user defined data')
    .option('--enable', 'operationalState ENABLED')
    .option('--disable', 'operationalState DISABLED')
    .option('--user-data <key=value>', 'set user defined data (repeat for several)', collect, [] as string[])
    .option('--user-data-delete <key>', 'delete a user defined data key (repeat)', collect, [] as string[])
    .option('--if-match <etag>', 'only if the package still has this ETag')
    .action(async (id: string, opts: UpdateOptions) => {
      if (opts.enable && opts.disable) throw new CliError('give --enable or --disable, not both');
      const body: Record<string, unknown> = {};
      if (opts.enable || opts.disable) body.operationalState = opts.enable ? 'ENABLED' : 'DISABLED';
      const data: Record<string, string | null> = keyValues(opts.userData, '--user-data', 'text');
      for (const key of opts.userDataDelete) data[key] = null;
      if (Object.keys(data).length) body.userDefinedData = data;
      if (Object.keys(body).length === 0) {
        throw new CliError('nothing to update: give --enable, --disable, --user-data or --user-data-delete');
      }
      const changes = await patchPackage(ApiClient.from(opts), id, body, opts.ifMatch);
      emit(opts.json, changes, () => {
        say(`package ${id} updated`);
        for (const [k, v] of Object.entries(changes ?? {})) say(`${k.padEnd(20)} ${JSON.stringify(v)}`);
      });
    });

  sub(pkg, 'delete <id>', 'delete a package (it must be DISABLED and NOT_IN_USE)').action(
    async (id: string, opts: Common) => {
      await deletePackage(ApiClient.from(opts), id);
      emit(opts.json, { deleted: id }, () => say(`deleted package ${id}`));
    },
  );
}
