/**
 * The parts of SOL005 v3.3.1 VnfPkgInfo (as /vnfpkgm/v2 answers it) the console reads, and the
 * badges a package's states make.
 */
import type { Tone } from '../../components/badge.tsx';
import type { ProblemDetails } from '../problem.ts';

export const PACKAGES_PATH = '/vnfpkgm/v2/vnf_packages';

export interface VnfPkgInfo {
  id: string;
  vnfdId?: string;
  vnfProvider?: string;
  vnfProductName?: string;
  vnfSoftwareVersion?: string;
  vnfdVersion?: string;
  checksum?: { algorithm: string; hash: string };
  softwareImages: SoftwareImage[];
  additionalArtifacts: { artifactPath: string; checksum?: { algorithm: string; hash: string } }[];
  onboardingState: 'CREATED' | 'UPLOADING' | 'PROCESSING' | 'ONBOARDED' | 'ERROR';
  operationalState: 'ENABLED' | 'DISABLED';
  usageState: 'IN_USE' | 'NOT_IN_USE';
  userDefinedData?: Record<string, unknown>;
  onboardingFailureDetails?: OnboardingFailure;
}

export interface SoftwareImage {
  id: string;
  name: string;
  version?: string;
  containerFormat: string;
  diskFormat: string;
  minDisk?: number;
  minRam?: number;
  size?: number;
  imagePath?: string;
}

/** Where in the package an onboarding problem is. */
export interface ProblemLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface OnboardingFailure extends ProblemDetails {
  location?: ProblemLocation;
  problems?: { code?: string; message: string; location?: ProblemLocation }[];
}

export interface Badge {
  label: string;
  tone: Tone;
  title?: string;
}

const ONBOARDING: Record<VnfPkgInfo['onboardingState'], Badge> = {
  CREATED: { label: 'awaiting upload', tone: 'neutral' },
  UPLOADING: { label: 'uploading', tone: 'busy' },
  PROCESSING: { label: 'onboarding', tone: 'busy' },
  ONBOARDED: { label: 'onboarded', tone: 'ok' },
  ERROR: { label: 'failed', tone: 'bad' },
};

/** The badges of a package: where onboarding is, and once onboarded enabled/disabled and use. */
export function packageBadges(pkg: VnfPkgInfo): Badge[] {
  const badges = [ONBOARDING[pkg.onboardingState] ?? { label: pkg.onboardingState, tone: 'neutral' }];
  if (pkg.onboardingState === 'ERROR' && pkg.onboardingFailureDetails) {
    badges[0] = { ...badges[0], title: pkg.onboardingFailureDetails.detail };
  }
  if (pkg.onboardingState === 'ONBOARDED') {
    badges.push(
      pkg.operationalState === 'ENABLED'
        ? { label: 'enabled', tone: 'ok' }
        : { label: 'disabled', tone: 'off' },
    );
    if (pkg.usageState === 'IN_USE') badges.push({ label: 'in use', tone: 'busy' });
  }
  return badges;
}

/** Onboarding is still going: the package is worth polling. */
export function isOnboarding(pkg: VnfPkgInfo): boolean {
  return pkg.onboardingState === 'UPLOADING' || pkg.onboardingState === 'PROCESSING';
}
