/**
 * The layering of src/ (docs/architecture.md, "Layers"), checked by `npm run deps` in CI.
 * Type-only imports count: a type from a higher layer ties the code to it as much as a value.
 * A new rule or a new exception says why in its comment.
 */

// Every folder or file of src/ below the HTTP API and the command line.
const BELOW_HTTP_AND_CLI = '^src/(?!(http|cli)/|main\\.ts$)';
// The capabilities: what Bosun does, built on the data layer.
const CAPABILITIES = '^src/(vnfd|packages|notify|vims|drivers|grant|lcm|fm|jobs|http|cli)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'Files that import each other cannot be understood, tested or moved one at a time; ' +
        'a cycle is broken by moving what both need one layer down.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-not-http-cli',
      comment:
        'The domain and data layers are reached through HTTP and the command line, never the ' +
        'reverse: they speak SOL data (src/sol/) and throw ApiError, the HTTP layer renders it.',
      severity: 'error',
      from: { path: BELOW_HTTP_AND_CLI },
      to: { path: '^src/(http|cli)/' },
    },
    {
      name: 'http-not-cli',
      comment: 'The command line sits on top of the server (bosun serve) and its API; the server knows no command.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'domain-not-jobs',
      comment:
        'jobs/ runs the domain in the background (onboarding, LCM operations, delivery, sweeps) ' +
        'and runtime.ts builds and starts it all; the domain does not know who runs or wires it.',
      severity: 'error',
      from: { path: '^src/(sol|zip|config|store|security|net|vnfd|packages|notify|vims|drivers|grant|lcm|fm)/' },
      to: { path: '^src/(jobs/|runtime(-database)?\\.ts$)' },
    },
    {
      name: 'fm-above-lcm',
      comment:
        'fm/ (alarms) is about VNF instances and heals them through the lifecycle: the lifecycle ' +
        'and what it builds on never need to know of alarms.',
      severity: 'error',
      from: { path: '^src/(lcm|vims|drivers|grant|packages|vnfd)/' },
      to: { path: '^src/fm/' },
    },
    {
      name: 'lcm-above-vims-drivers-grant',
      comment:
        'lcm/ orchestrates VIMs (vims/), management drivers (drivers/) and grants (grant/): they are ' +
        'its tools and know nothing of the engine. Known exceptions: .dependency-cruiser-known-violations.json.',
      severity: 'error',
      from: { path: '^src/(vims|drivers|grant)/' },
      to: { path: '^src/lcm/' },
    },
    {
      name: 'store-imports-no-capability',
      comment:
        'store/ keeps rows and blobs for every capability, so it may use only what lies below it: ' +
        'config/, SOL data (sol/) and the streaming zip scanner (zip/) the blob store hashes uploads with.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: '^src/(store|config|sol|zip)/' },
    },
    {
      name: 'notify-core-below-capabilities',
      comment:
        'notify/ (subscriptions, filters, outbox, delivery) serves every API: packages/ and lcm/ ' +
        'build their notifications on it, so it imports none of them.',
      severity: 'error',
      from: { path: '^src/notify/' },
      to: { path: CAPABILITIES, pathNot: '^src/notify/' },
    },
    {
      name: 'packages-below-lcm',
      comment:
        'packages/ onboards and keeps VNF packages; the LCM and its tools read packages, not the reverse.',
      severity: 'error',
      from: { path: '^src/packages/' },
      to: { path: '^src/(lcm|vims|drivers|grant)/' },
    },
    {
      name: 'vnfd-reads-packages-only',
      comment:
        'vnfd/ reads and checks a package from its bytes alone (no database, no network), so that ' +
        'bosun package check and onboarding give the same verdict.',
      severity: 'error',
      from: { path: '^src/vnfd/' },
      to: { path: '^src/', pathNot: '^src/(vnfd|sol|zip)/|^src/own-properties\\.ts$' },
    },
    {
      name: 'sol-is-a-leaf',
      comment: 'sol/ is the data every layer speaks (ProblemDetails, the API registry, SOL enumerations); it speaks to no one.',
      severity: 'error',
      from: { path: '^src/sol/' },
      to: { path: '^src/', pathNot: '^src/sol/' },
    },
    {
      name: 'foundations-are-leaves',
      comment:
        'config/, zip/ and net/ are used by every layer above them; besides each other they may use only SOL data.',
      severity: 'error',
      from: { path: '^src/(config|zip|net)/' },
      to: { path: '^src/', pathNot: '^src/(config|zip|net|sol)/' },
    },
    {
      name: 'server-not-console-sources',
      comment:
        'The server serves the console as built files (console.dir); it never imports the ' +
        "console's sources, which are a browser app built by Vite.",
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^console/' },
    },
    {
      name: 'console-not-server',
      comment:
        'The console is a browser app that talks to Bosun over its HTTP APIs only; server code ' +
        'would not run in a browser and would tie the console to the server internals. SOL data ' +
        'files of pure constants (src/sol/lcm-operations.ts) are the exception: the console ' +
        'speaks the same enumerations, and one copy cannot drift from the API.',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^src/', pathNot: '^src/sol/lcm-operations\\.ts$' },
    },
    {
      name: 'console-imports-resolve',
      comment: 'An import the checker cannot resolve is an import it cannot check.',
      severity: 'error',
      from: { path: '^console/src/' },
      to: { couldNotResolve: true, pathNot: '\\.css$' },
    },
    {
      name: 'imports-resolve',
      comment: 'An import the checker cannot resolve is an import it cannot check.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'types', 'default'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
