/**
 * The VNF package state machine (SOL005; Tacker §2.1 without its mistakes) as data: which
 * onboarding states each action needs, and what it leads to. Services look the rule up
 * instead of branching.
 */
export type OnboardingState = 'CREATED' | 'UPLOADING' | 'PROCESSING' | 'ONBOARDED';
export type OperationalState = 'ENABLED' | 'DISABLED';
export type UsageState = 'IN_USE' | 'NOT_IN_USE';

export const ONBOARDING_STATES: readonly OnboardingState[] = [
  'CREATED',
  'UPLOADING',
  'PROCESSING',
  'ONBOARDED',
];
export const OPERATIONAL_STATES: readonly OperationalState[] = ['ENABLED', 'DISABLED'];
export const USAGE_STATES: readonly UsageState[] = ['IN_USE', 'NOT_IN_USE'];

export type PackageAction =
  | 'upload'
  | 'uploadFromUri'
  | 'uploaded'
  | 'onboarded'
  | 'failed'
  | 'changeOperationalState'
  | 'fetchContent';

interface Transition {
  from: readonly OnboardingState[];
  /** undefined: the onboarding state does not change. */
  to?: OnboardingState;
  /** Why the action is refused in another state (409 detail). */
  refusal: string;
}

export const TRANSITIONS: Readonly<Record<PackageAction, Transition>> = {
  upload: {
    from: ['CREATED'],
    to: 'UPLOADING',
    refusal: 'content can only be uploaded while onboardingState is CREATED',
  },
  uploadFromUri: {
    from: ['CREATED'],
    to: 'UPLOADING',
    refusal: 'content can only be uploaded while onboardingState is CREATED',
  },
  uploaded: { from: ['UPLOADING'], to: 'PROCESSING', refusal: 'the package is not being uploaded' },
  onboarded: { from: ['PROCESSING'], to: 'ONBOARDED', refusal: 'the package is not being processed' },
  // Any failure (upload, download, validation, interruption) returns to CREATED: a retry is allowed.
  failed: { from: ['UPLOADING', 'PROCESSING'], to: 'CREATED', refusal: 'the package is not being onboarded' },
  changeOperationalState: {
    from: ['ONBOARDED'],
    refusal: 'operationalState can only change once the package is ONBOARDED',
  },
  fetchContent: {
    from: ['ONBOARDED'],
    refusal: 'the package content is available once the package is ONBOARDED',
  },
};

/** The refusal detail when `action` is not allowed in `state`, else undefined. */
export function refusalOf(action: PackageAction, state: string, id: string): string | undefined {
  const t = TRANSITIONS[action];
  if (t.from.includes(state as OnboardingState)) return undefined;
  return `VNF package ${id} is ${state}: ${t.refusal}.`;
}

/** DELETE needs DISABLED and NOT_IN_USE (SOL005 §9.4.3.3.5). */
export const DELETABLE = { operationalState: 'DISABLED', usageState: 'NOT_IN_USE' } as const;
