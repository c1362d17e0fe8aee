/**
 * Resources of the SOL APIs Bosun mounts that are planned but not served yet: they answer 404
 * with a detail that says so (and what the API serves today), not the bare "no resource" of a
 * typo. They are not routes: nothing else (Allow, api-docs, metrics) sees them.
 */
import type { Planned } from '../sol013/errors.ts';

const PM_JOBS = 'VNF performance management jobs and reports (SOL002/SOL003 PM jobs)';
const PM_THRESHOLDS = 'VNF performance management thresholds (SOL002/SOL003 Thresholds)';

export const PLANNED_RESOURCES: readonly Planned[] = [
  { path: '/vnfpm/v2/pm_jobs', what: PM_JOBS },
  { path: '/vnfpm/v2/pm_jobs/:pmJobId', what: PM_JOBS },
  { path: '/vnfpm/v2/pm_jobs/:pmJobId/reports/:reportId', what: PM_JOBS },
  { path: '/vnfpm/v2/thresholds', what: PM_THRESHOLDS },
  { path: '/vnfpm/v2/thresholds/:thresholdId', what: PM_THRESHOLDS },
];
