/** instantiate_end: the cluster built on the new VNFCs (build-cluster.ts). */
import type { BuiltinHook } from '../driver.ts';
import { buildCluster } from './build-cluster.ts';
import { contextOf } from './context.ts';

export const instantiateEnd: BuiltinHook = (call) => buildCluster(contextOf(call));
