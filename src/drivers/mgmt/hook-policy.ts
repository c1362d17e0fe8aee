/**
 * The operator's policy for package code (`hooks.policy`), as Tacker has for management drivers:
 * `sandboxed` runs every hook in the sandbox, `allow-list` only those whose artifact's SHA-256 the
 * operator listed in `hooks.allowList` (still sandboxed), `disabled` none — an operation whose
 * flavour declares a hook fails at it rather than skipping code the VNF may depend on.
 */
export type HookPolicy = 'sandboxed' | 'allow-list' | 'disabled';

export interface HookArtifact {
  hook: string;
  path: string;
  sha256: string;
}

const REFUSALS: Readonly<
  Record<HookPolicy, (a: HookArtifact, allowList: readonly string[]) => string | undefined>
> = {
  sandboxed: () => undefined,
  'allow-list': (a, allowList) =>
    allowList.includes(a.sha256)
      ? undefined
      : `Hook ${a.hook} (${a.path}) is not allowed to run: its SHA-256 ${a.sha256} is not in hooks.allowList ` +
        '(hooks.policy is allow-list). An operator who approves this artifact adds that digest to hooks.allowList.',
  disabled: (a) =>
    `Hook ${a.hook} (${a.path}) is not run: hooks.policy is disabled on this VNFM, and the VNF's flavour ` +
    'declares this hook. Ask the operator to allow package hooks, or use a package without them.',
};

/** Why the policy refuses to run the artifact, or undefined when it may run. */
export function policyRefusal(
  policy: HookPolicy,
  allowList: readonly string[],
  artifact: HookArtifact,
): string | undefined {
  return REFUSALS[policy](artifact, allowList);
}
