/**
 * SOL003's LcmOperationType and LcmOperationStateType: data the LCM engine, its notifications'
 * filters and the API views all speak.
 */

export const OPERATIONS = [
  'INSTANTIATE',
  'SCALE',
  'SCALE_TO_LEVEL',
  'CHANGE_FLAVOUR',
  'TERMINATE',
  'HEAL',
  'OPERATE',
  'CHANGE_EXT_CONN',
  'MODIFY_INFO',
  'CHANGE_VNFPKG',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export const OPERATION_STATES = [
  'STARTING',
  'PROCESSING',
  'COMPLETED',
  'FAILED_TEMP',
  'FAILED',
  'ROLLING_BACK',
  'ROLLED_BACK',
] as const;
export type OperationState = (typeof OPERATION_STATES)[number];
