/**
 * The LCM majors the table-driven tests run the same scenarios on, with what each is expected to
 * do differently: paths and Version header, the client and its status codes. (Every /vnflcm/v1
 * answer is checked against ETSI's v2.6.1 schemas by the test HTTP client, v1-responses.ts; the
 * v2 representations by representations.test.ts.)
 */

import { lcmClient } from './lcm-client.ts';
import { H, type Instance, type OpOcc, V2 } from './lcm-support.ts';
import { H1, type InstanceV1, type OpOccV1, V1 } from './v1-support.ts';

/** What both majors' VnfInstance has, as the shared scenarios read it. */
export type AnyInstance = Pick<
  Instance & InstanceV1,
  'id' | 'vnfdId' | 'instantiationState' | 'metadata' | 'extensions' | '_links'
> & {
  instantiatedVnfInfo?: Pick<
    NonNullable<InstanceV1['instantiatedVnfInfo']>,
    'flavourId' | 'vnfState' | 'scaleStatus' | 'vnfcResourceInfo' | 'vnfVirtualLinkResourceInfo'
  >;
};

/** What both majors' VnfLcmOpOcc has. */
export type AnyOpOcc = Pick<
  OpOcc & OpOccV1,
  'id' | 'operationState' | 'operation' | 'vnfInstanceId' | 'isCancelPending' | 'error' | '_links'
> & {
  operationParams: Record<string, unknown>;
  changedInfo?: Record<string, unknown>;
  cancelMode?: string;
  startTime: string;
  stateEnteredTime: string;
};

export interface Major {
  major: 'v1' | 'v2';
  prefix: string;
  headers: Record<string, string>;
  client: ReturnType<typeof lcmClient<AnyInstance, AnyOpOcc>>;
  /** Whether it has the change_vnfpkg task (SOL003 v2.6.1 has none). */
  changeVnfpkg: boolean;
  /** A rollback the operation cannot have: 409 as Tacker v1 answers, 422 by SOL003. */
  refusedRollback: 409 | 422;
}

export const MAJORS: readonly Major[] = [
  {
    major: 'v1',
    prefix: V1,
    headers: H1,
    client: lcmClient<AnyInstance, AnyOpOcc>(V1, H1),
    changeVnfpkg: false,
    refusedRollback: 409,
  },
  {
    major: 'v2',
    prefix: V2,
    headers: H,
    client: lcmClient<AnyInstance, AnyOpOcc>(V2, H),
    changeVnfpkg: true,
    refusedRollback: 422,
  },
];

/** The majors by name. */
export const MAJOR = Object.fromEntries(MAJORS.map((m) => [m.major, m])) as Record<Major['major'], Major>;
