/** /vnfpkgm/v1 (SOL005 v2.6.1, Tacker-compatible) and /vnfpkgm/v2 (SOL005 v3.3.1). */
import type { FastifyInstance } from 'fastify';
import type { ListResource } from '../../sol013/list-query.ts';
import { loadByVnfdId } from './access.ts';
import { packageListV1, packageListV2 } from './list.ts';
import { mountContent, mountPackages } from './resources.ts';
import { mountSubscriptions } from './subscriptions.ts';
import { toV1, toV2 } from './views.ts';

export function registerVnfpkgm(app: FastifyInstance): void {
  mountPackages(app, {
    prefix: '/vnfpkgm/v1',
    sol013: { api: 'vnfpkgm', major: 'v1' },
    list: packageListV1 as unknown as ListResource<never, ReturnType<typeof toV1>>,
    toView: toV1,
  });
  const v2 = { api: 'vnfpkgm', major: 'v2' } as const;
  mountPackages(app, {
    prefix: '/vnfpkgm/v2',
    sol013: v2,
    list: packageListV2 as unknown as ListResource<never, ReturnType<typeof toV2>>,
    toView: toV2,
  });
  const onboarded = '/vnfpkgm/v2/onboarded_vnf_packages/:vnfdId';
  const byVnfdId = (request: Parameters<typeof loadByVnfdId>[0]) =>
    loadByVnfdId(request, (request.params as { vnfdId: string }).vnfdId);
  app.get(onboarded, { config: { sol013: v2 } }, async (request) => toV2(await byVnfdId(request), request));
  mountContent(app, onboarded, v2, byVnfdId);
  for (const major of ['v1', 'v2'] as const) mountSubscriptions(app, major);
}
