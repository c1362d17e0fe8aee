/**
 * The links the LCM engine hands out (in grant requests), built in one place: paths of the op
 * occ and instance in the API major they belong to, and of the grants the NFVO serves.
 */
import type { LcmMajor } from './store.ts';

export interface LcmLinks {
  opOcc(id: string): string;
  instance(id: string): string;
  /** Where grants live (the local NFVO's Grant API). */
  readonly grants: string;
}

export const lcmLinks = (major: LcmMajor): LcmLinks => ({
  opOcc: (id) => `/vnflcm/${major}/vnf_lcm_op_occs/${id}`,
  instance: (id) => `/vnflcm/${major}/vnf_instances/${id}`,
  grants: '/grant/v1/grants',
});
