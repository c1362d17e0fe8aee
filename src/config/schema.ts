/**
 * The configuration schema: one TypeBox document that is at once the validation, the defaults
 * and the documentation of every key. Keys marked `secret` are masked by `bosun config show`.
 */
import { Type } from '@sinclair/typebox';
import { FmConfigSchema } from './fm-schema.ts';
import { KubernetesConfigSchema } from './kubernetes-schema.ts';
import { NfvoConfigSchema } from './nfvo-schema.ts';
import { secret } from './secret.ts';

export const PAGE_SIZE_DEFAULT = 100;

export const ConfigSchema = Type.Object(
  {
    server: Type.Object(
      {
        port: Type.Integer({ minimum: 0, maximum: 65535, default: 9890, description: 'TCP port of the API' }),
        bind: Type.String({ default: '127.0.0.1', description: 'address the API listens on' }),
        allowUnauthenticatedNetwork: Type.Boolean({
          default: false,
          description:
            'with auth.mode none, allow binding a non-loopback address (anyone who reaches it is admin)',
        }),
        publicUrl: Type.String({
          default: '',
          description: 'base URL used in Location and Link headers; empty = the request Host',
        }),
        bodyLimit: Type.Integer({
          minimum: 1024,
          default: 1048576,
          description: 'largest JSON request body in bytes',
        }),
        shutdownTimeoutMs: Type.Integer({
          minimum: 0,
          default: 30000,
          description: 'how long SIGTERM waits for in-flight requests',
        }),
        drainMs: Type.Integer({
          minimum: 0,
          default: 0,
          description:
            'on SIGTERM, how long /readyz answers 503 while requests are still served, so that a load balancer stops sending new ones before the server closes (a cluster sets it above the balancer health check interval times its fall count)',
        }),
        maxQueryLength: Type.Integer({
          minimum: 256,
          default: 8192,
          description: 'longest accepted query string (filters included)',
        }),
        maxJsonDepth: Type.Integer({
          minimum: 8,
          maximum: 1000,
          default: 64,
          description: 'deepest nesting of objects and arrays accepted in a JSON request body',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    database: Type.Object(
      {
        url: secret(
          Type.String({
            default: 'sqlite:./var/bosun.db',
            description: 'sqlite:<file> (embedded default) or postgres://user:pass@host:port/db',
          }),
        ),
        poolSize: Type.Integer({
          minimum: 1,
          default: 10,
          description: 'PostgreSQL connections per process',
        }),
        connectTimeoutMs: Type.Integer({
          minimum: 100,
          default: 15000,
          description:
            'how long a query waits for a PostgreSQL connection, new or free in the pool, before it fails (503 to a client)',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    blobs: Type.Object(
      {
        backend: Type.Union([Type.Literal('fs'), Type.Literal('s3')], {
          default: 'fs',
          description: 'fs: a local folder (single node); s3: an S3-compatible object store (cluster)',
        }),
        dir: Type.String({ default: './var/blobs', description: 'folder of the filesystem blob store' }),
        cacheDir: Type.String({
          default: './var/cache',
          description: 'local caches rebuilt from the blob store (e.g. packages downloaded from S3)',
        }),
        s3: Type.Object(
          {
            bucket: Type.String({ default: '' }),
            prefix: Type.String({ default: 'bosun/', description: 'key prefix inside the bucket' }),
            region: Type.String({ default: 'us-east-1' }),
            endpoint: Type.String({ default: '', description: 'S3-compatible endpoint URL; empty = AWS' }),
            forcePathStyle: Type.Boolean({ default: true }),
            accessKeyId: secret(Type.String({ default: '' })),
            secretAccessKey: secret(Type.String({ default: '' })),
            connectTimeoutMs: Type.Integer({
              minimum: 100,
              default: 5000,
              description: 'a connection to the object store not made within this fails the attempt',
            }),
            idleTimeoutMs: Type.Integer({
              minimum: 100,
              default: 30000,
              description:
                'a request to the object store with no byte sent or received for this long fails the attempt',
            }),
            maxAttempts: Type.Integer({
              minimum: 1,
              maximum: 10,
              default: 3,
              description:
                'attempts per object store request (the first included), with back-off between them',
            }),
          },
          { additionalProperties: false, default: {} },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    packages: Type.Object(
      {
        maxUploadBytes: Type.Integer({
          minimum: 1024,
          default: 64 * 2 ** 30,
          description: 'largest VNF package accepted (bytes)',
        }),
        signaturePolicy: Type.Union(
          [Type.Literal('off'), Type.Literal('verify-if-present'), Type.Literal('required')],
          { default: 'verify-if-present', description: 'SOL004 package and artifact signatures' },
        ),
        trustAnchors: Type.Array(Type.String(), {
          default: [],
          description: 'PEM files of the CAs trusted to sign VNF packages',
        }),
        imageHashMismatch: Type.Union([Type.Literal('error'), Type.Literal('warning')], {
          default: 'error',
          description:
            'a software image whose digest differs from the manifest: refuse (error) or accept with a warning',
        }),
        strict: Type.Boolean({
          default: false,
          description:
            'refuse packages with the problems Tacker accepts (host-path artifacts, undefined step deltas, substitution values outside constraints, data types under node_types); warnings otherwise',
        }),
        uriConnectTimeoutMs: Type.Integer({ minimum: 100, default: 10000 }),
        uriReadTimeoutMs: Type.Integer({
          minimum: 100,
          default: 60000,
          description: 'idle time allowed between bytes',
        }),
        uriMaxRedirects: Type.Integer({ minimum: 0, maximum: 20, default: 5 }),
      },
      { additionalProperties: false, default: {} },
    ),
    outbound: Type.Object(
      {
        allow: Type.Array(Type.String(), {
          default: [],
          description:
            'addresses Bosun may call although private, loopback or link-local (CIDRs like 10.0.0.0/8, or host names); public addresses are always allowed',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    subscriptions: Type.Object(
      {
        duplicates: Type.Union([Type.Literal('see-other'), Type.Literal('allow')], {
          default: 'see-other',
          description:
            'a new subscription identical to one of the project (same API, callback URI, filter and verbosity): see-other answers 303 with the existing one; allow stores another',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    worker: Type.Object(
      {
        leaseMs: Type.Integer({
          minimum: 1000,
          default: 30000,
          description: 'a job whose worker stops heartbeating this long is taken over',
        }),
        pollIntervalMs: Type.Integer({ minimum: 10, default: 1000 }),
        sweepIntervalMs: Type.Integer({
          minimum: 1000,
          default: 30 * 60 * 1000,
          description:
            'how often the janitor sweeps: leftover package blobs, delivery state of deleted subscriptions',
        }),
        sweepGraceMs: Type.Integer({
          minimum: 0,
          default: 60 * 60 * 1000,
          description: 'a blob younger than this is never swept (an upload may still be writing it)',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    notify: Type.Object(
      {
        callbackTest: Type.Boolean({
          default: true,
          description:
            'test a new subscription callback with a GET expecting 204 (SOL013) before storing the subscription',
        }),
        concurrency: Type.Integer({
          minimum: 1,
          default: 16,
          description:
            'subscriptions a process delivers to at once; a slow or failing receiver holds only its own slot',
        }),
        requestTimeoutMs: Type.Integer({
          minimum: 100,
          default: 10000,
          description: 'a callback (or token endpoint) that has not answered within this fails the attempt',
        }),
        maxAttempts: Type.Integer({
          minimum: 1,
          default: 30,
          description: 'failed attempts after which a notification is dead',
        }),
        maxAgeMs: Type.Integer({
          minimum: 1000,
          default: 24 * 60 * 60 * 1000,
          description: 'a notification failing this long after it was produced is dead',
        }),
        initialBackoffMs: Type.Integer({
          minimum: 1,
          default: 1000,
          description: 'wait before the first retry; doubled (with jitter) after each failure',
        }),
        maxBackoffMs: Type.Integer({
          minimum: 1,
          default: 600000,
          description: 'longest wait between retries',
        }),
        batchSize: Type.Integer({
          minimum: 1,
          maximum: 1000,
          default: 50,
          description: 'notifications of one subscription read per query (sent one after the other)',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    sim: Type.Object(
      {
        operationDelayMs: Type.Integer({
          minimum: 0,
          default: 5,
          description: 'simulated duration of each call to the simulated VIM (create a server, a port…)',
        }),
        gracefulWaitCapMs: Type.Integer({
          minimum: 0,
          default: 10000,
          description:
            'longest wait of a graceful terminate or stop while servers run (the requested timeout, capped)',
        }),
        hangTimeoutMs: Type.Integer({
          minimum: 1,
          default: 3600000,
          description: 'how long an injected hang lasts when the fault names no timeout',
        }),
        registerDefaultVim: Type.Boolean({
          default: true,
          description: 'register the simulated VIM as the shared default VIM at start when there is none',
        }),
        zones: Type.Array(
          Type.Object(
            {
              name: Type.String({ minLength: 1, maxLength: 128 }),
              hosts: Type.Integer({ minimum: 0, maximum: 1000 }),
              vcpus: Type.Integer({ minimum: 1 }),
              ramMb: Type.Integer({ minimum: 1 }),
              diskGb: Type.Integer({ minimum: 1 }),
            },
            { additionalProperties: false },
          ),
          {
            default: [
              { name: 'zone-a', hosts: 4, vcpus: 32, ramMb: 131072, diskGb: 2048 },
              { name: 'zone-b', hosts: 4, vcpus: 32, ramMb: 131072, diskGb: 2048 },
            ],
            description:
              'initial topology: availability zones and their hosts (<zone>-host-<n>), each with this capacity',
          },
        ),
        flavors: Type.Array(
          Type.Object(
            {
              name: Type.String({ minLength: 1, maxLength: 255 }),
              vcpus: Type.Integer({ minimum: 1 }),
              ramMb: Type.Integer({ minimum: 1 }),
              diskGb: Type.Integer({ minimum: 0 }),
            },
            { additionalProperties: false },
          ),
          {
            default: [
              { name: 'm1.tiny', vcpus: 1, ramMb: 512, diskGb: 1 },
              { name: 'm1.small', vcpus: 1, ramMb: 2048, diskGb: 20 },
              { name: 'm1.medium', vcpus: 2, ramMb: 4096, diskGb: 40 },
              { name: 'm1.large', vcpus: 4, ramMb: 8192, diskGb: 80 },
              { name: 'm1.xlarge', vcpus: 8, ramMb: 16384, diskGb: 160 },
            ],
            description:
              'flavors of the simulated VIM (VDUs get the one they name, else the smallest that fits)',
          },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    lcm: Type.Object(
      {
        concurrency: Type.Integer({
          minimum: 1,
          maximum: 256,
          default: 16,
          description: 'LCM operations one worker process runs at the same time',
        }),
        hookTimeoutMs: Type.Integer({
          minimum: 100,
          default: 600000,
          description: 'longest run of one management-driver hook (a VNFD Vnflcm script) before it is killed',
        }),
        defaultGracefulTerminationTimeout: Type.Integer({
          minimum: 0,
          default: 10,
          description:
            'seconds a GRACEFUL terminate without gracefulTerminationTimeout gives the VNF (Tacker: 10)',
        }),
        placementFallbackBestEffort: Type.Boolean({
          default: false,
          description:
            'fallbackBestEffort of the grant placement constraints: place anyway when affinity rules cannot be met (a request overrides it with additionalParams.fallbackBestEffort)',
        }),
        placementZoneRetries: Type.Integer({
          minimum: 0,
          maximum: 100,
          default: 0,
          description:
            'availability zones an instantiate, scale out or heal tries after the granted one when it has no room; 0 = as many as the VIM has zones',
        }),
        placementReselectPatterns: Type.Array(Type.String({ minLength: 1, maxLength: 512 }), {
          maxItems: 32,
          default: ['No valid host was found', 'Exceeded maximum number of retries'],
          description:
            'regular expressions (case-insensitive) of VIM failure messages that mean "no room in this zone": the server is tried in another zone (a NO_VALID_HOST failure always is)',
        }),
        timeline: Type.Object(
          {
            maxOutputLines: Type.Integer({
              minimum: 0,
              maximum: 100000,
              default: 2000,
              description: 'management-driver output lines an op occ timeline keeps (the rest are dropped)',
            }),
            streamsPerClient: Type.Integer({
              minimum: 1,
              maximum: 1000,
              default: 8,
              description:
                'event streams (GET /bosun/v1/vnf_lcm_op_occs/{id}/events) one client may hold open at once',
            }),
            streamIdleTimeoutMs: Type.Integer({
              minimum: 1000,
              default: 900000,
              description:
                'an event stream with no new event for this long is closed (the client may resume it)',
            }),
            heartbeatMs: Type.Integer({
              minimum: 100,
              default: 15000,
              description: 'how often an event stream sends a comment so that proxies keep it open',
            }),
            pollMs: Type.Integer({
              minimum: 50,
              default: 1000,
              description:
                'how often an event stream looks for events by itself (other processes on SQLite; a safety net on PostgreSQL)',
            }),
          },
          { additionalProperties: false, default: {} },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    hooks: Type.Object(
      {
        policy: Type.Union(
          [Type.Literal('sandboxed'), Type.Literal('allow-list'), Type.Literal('disabled')],
          {
            default: 'sandboxed',
            description:
              'package hook scripts: sandboxed (run in the sandbox), allow-list (only artifacts whose SHA-256 is in hooks.allowList, sandboxed), disabled (an operation that declares a hook fails at it)',
          },
        ),
        allowList: Type.Array(Type.String({ pattern: '^[0-9a-f]{64}$' }), {
          default: [],
          description:
            'SHA-256 (lowercase hex) of the hook artifacts allowed to run under hooks.policy allow-list',
        }),
        network: Type.Union([Type.Literal('allow'), Type.Literal('none')], {
          default: 'allow',
          description:
            'allow: hooks share the host network (to reach VNFs); none: a network namespace of their own',
        }),
        uid: Type.Integer({
          minimum: 1,
          maximum: 4294967294,
          default: 65534,
          description: 'user hooks run as when Bosun runs as root (default nobody: owns no files)',
        }),
        gid: Type.Integer({
          minimum: 1,
          maximum: 4294967294,
          default: 65534,
          description: 'group hooks run as when Bosun runs as root',
        }),
        limits: Type.Object(
          {
            cpuSeconds: Type.Integer({
              minimum: 1,
              default: 300,
              description: 'CPU time of a hook (RLIMIT_CPU)',
            }),
            memoryMb: Type.Integer({
              minimum: 64,
              default: 2048,
              description: 'address space of each hook process (RLIMIT_AS)',
            }),
            processes: Type.Integer({
              minimum: 4,
              default: 256,
              description: 'processes of one hook (RLIMIT_NPROC, counted per sandbox)',
            }),
            fileSizeMb: Type.Integer({
              minimum: 1,
              default: 64,
              description: 'largest file a hook writes (RLIMIT_FSIZE)',
            }),
            tmpMb: Type.Integer({
              minimum: 1,
              default: 256,
              description: 'size of the private /tmp (and of /dev/shm) of a hook',
            }),
            outputBytes: Type.Integer({
              minimum: 1024,
              default: 1048576,
              description: 'stdout and stderr kept from a hook (each); a longer answer is refused',
            }),
          },
          { additionalProperties: false, default: {} },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    vims: Type.Record(
      Type.String({ minLength: 1 }),
      Type.Object(
        {
          exposeCredentialsToHooks: Type.Boolean({
            default: false,
            description: "give hooks this VIM's credentials in their vimConnectionInfo",
          }),
        },
        { additionalProperties: false },
      ),
      {
        default: {},
        description:
          'per registered VIM (by id): { exposeCredentialsToHooks: true } gives hooks its credentials',
      },
    ),
    nfvo: NfvoConfigSchema,
    kubernetes: KubernetesConfigSchema,
    fm: FmConfigSchema,
    security: Type.Object(
      {
        encryptionKey: secret(
          Type.String({
            default: '',
            description:
              'base64 of 32 random bytes; encrypts secrets at rest. Empty: a key is generated in keyFile (single node only)',
          }),
        ),
        keyFile: Type.String({
          default: './var/secret.key',
          description: 'where the generated key lives when encryptionKey is empty',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    auth: Type.Object(
      {
        mode: Type.Union([Type.Literal('none'), Type.Literal('oauth2')], {
          default: 'none',
          description: 'none: every caller is admin; oauth2: SOL013 §8 bearer tokens',
        }),
        oauth2: Type.Object(
          {
            builtinTokenEndpoint: Type.Boolean({
              default: true,
              description: 'serve POST /oauth2/token (client credentials) and GET /oauth2/jwks',
            }),
            issuer: Type.String({ default: 'bosun', description: 'iss of tokens issued by Bosun' }),
            audience: Type.String({ default: 'bosun', description: 'aud Bosun issues and requires' }),
            tokenTtlSeconds: Type.Integer({ minimum: 60, default: 3600 }),
            jwksUrl: Type.String({
              default: '',
              description: 'JWKS of an external authorization server whose tokens are also accepted',
            }),
            externalIssuer: Type.String({ default: '', description: 'required iss of external tokens' }),
            projectClaim: Type.String({
              default: 'project',
              description: 'claim carrying the caller project',
            }),
            adminScope: Type.String({ default: 'bosun:admin', description: 'scope that sees every project' }),
          },
          { additionalProperties: false, default: {} },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    paging: Type.Object(
      {
        defaultPageSize: Type.Integer({ minimum: 1, maximum: 10000, default: PAGE_SIZE_DEFAULT }),
        pageSizes: Type.Record(Type.String(), Type.Integer({ minimum: 1, maximum: 10000 }), {
          default: {},
          description: 'page size per resource, e.g. { vnf_instances: 50 }',
        }),
        allRecordsMax: Type.Integer({
          minimum: 1,
          maximum: 100000,
          default: 10000,
          description:
            "most items one answer to Tacker's all_records=yes holds (more: a Link to the rest, as any page)",
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    console: Type.Object(
      {
        dir: Type.String({
          default: '',
          description:
            'folder of the built web console served at /ui/ (npm run build:console); empty = console/dist of this checkout',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
    log: Type.Object(
      {
        level: Type.Union(
          ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
          { default: 'info' },
        ),
        accessLog: Type.Boolean({
          default: true,
          description: 'one info line per request (method, URL, route, status, duration, request id)',
        }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

export type { Static } from '@sinclair/typebox';
