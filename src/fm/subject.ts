/**
 * The VNF instance an alarm is about, in whichever LCM API major it lives: its project (the
 * alarm's), its major (the alarm's objectInstance link) and the facts FM subscription filters
 * match on. An alarm outlives a deleted instance: its notifications then carry only the id.
 */
import { instanceFacts } from '../lcm/notify.ts';
import { LCM_STORES } from '../lcm/store.ts';
import type { VnfInstanceFacts } from '../notify/vnf-instance-filter.ts';
import type { Executor } from '../store/db/transaction.ts';

export interface AlarmSubject {
  projectId: string;
  major: string;
  facts: VnfInstanceFacts;
}

/** The instance `instanceId` in any LCM major, or undefined when there is none. */
export async function findAlarmSubject(db: Executor, instanceId: string): Promise<AlarmSubject | undefined> {
  for (const store of LCM_STORES) {
    const instance = await store.findInstance(db, instanceId);
    if (instance)
      return { projectId: instance.projectId, major: store.major, facts: instanceFacts(instance) };
  }
  return undefined;
}

/** The facts of the instance an existing alarm is about (only its id once the instance is gone). */
export async function subjectFacts(db: Executor, instanceId: string): Promise<VnfInstanceFacts> {
  return (await findAlarmSubject(db, instanceId))?.facts ?? { vnfInstanceId: instanceId };
}
