/**
 * What Bosun keeps in the instance's stack itself (the `bosun` JSON parameter): the VNFCs the
 * stack holds with their VDU, zone, flavour, image and CPs, the resource each is laid in, and the
 * instance-level facts the VIM does not know (flavour, scale status, external VLs). The stack is
 * then the one source of the instance's state: a retry, a rollback or another process reads it
 * back from Heat, and nothing can disagree with it.
 */
import type { ScaleInfo } from '../../../sol/instance-model.ts';
import type { ExtVirtualLinkData } from '../../contract.ts';
import type { Stack } from './client/heat.ts';

export const STATE_PARAMETER = 'bosun';

export interface StackVnfcState {
  id: string;
  vduId: string;
  zone?: string;
  flavour: string;
  image: string;
  cps: string[];
  storages: string[];
}

export interface StackState {
  /** The op occ that last applied this state. */
  opOccId: string;
  flavourId: string;
  /** Newest first (as vnfcResourceInfo is ordered). */
  vnfcs: StackVnfcState[];
  virtualLinks: string[];
  extVirtualLinks: ExtVirtualLinkData[];
  extManagedVirtualLinks: Record<string, unknown>[];
  scaleStatus: ScaleInfo[];
  maxScaleLevels: ScaleInfo[];
  localizationLanguage?: string;
  /** Top-level resource name → the VNFC ids it holds. */
  resources: Record<string, string[]>;
}

/** The template with the state parameter declared (Heat refuses undeclared parameters). */
export function withStateParameter(template: Record<string, unknown>): Record<string, unknown> {
  const parameters = { ...(template.parameters as Record<string, unknown> | undefined) };
  parameters[STATE_PARAMETER] = { type: 'json', default: {}, description: 'Bosun: the VNF instance state' };
  return { ...template, parameters };
}

/** The state a stack carries, or undefined (not a Bosun stack, or unreadable). */
export function stateOf(stack: Stack): StackState | undefined {
  const raw = stack.parameters?.[STATE_PARAMETER];
  try {
    const value = typeof raw === 'string' ? JSON.parse(raw) : raw;
    return value && typeof value === 'object' && Array.isArray((value as StackState).vnfcs)
      ? (value as StackState)
      : undefined;
  } catch {
    return undefined;
  }
}
