/**
 * The console's pages: one row per page, its path under /ui, and whether it has a place in the
 * navigation (in this order) and needs the admin scope. A new page is a row here.
 */
import type { FunctionComponent } from 'preact';
import { AlarmListPage } from './alarms/list.tsx';
import { InstanceDetailPage } from './instances/detail.tsx';
import { InstanceListPage } from './instances/list.tsx';
import { NotFoundPage } from './not-found.tsx';
import { OperationDetailPage } from './operations/detail.tsx';
import { OperationListPage } from './operations/list.tsx';
import { PackageDetailPage } from './packages/detail.tsx';
import { PackageListPage } from './packages/list.tsx';
import { SubscriptionListPage } from './subscriptions/list.tsx';
import { VimListPage } from './vims/list.tsx';

export interface PageProps {
  params: Record<string, string>;
}

export interface PageRoute {
  path: string;
  page: FunctionComponent<PageProps>;
  /** The navigation entry; pages below another (a detail page) have none. */
  nav?: string;
  /** The page calls Bosun's admin API (/bosun/v1): shown only to callers with the admin scope. */
  admin?: boolean;
}

export const ROUTES: PageRoute[] = [
  { path: '/packages', page: PackageListPage, nav: 'Packages' },
  { path: '/packages/:id', page: PackageDetailPage },
  { path: '/instances', page: InstanceListPage, nav: 'VNF instances' },
  { path: '/instances/:id', page: InstanceDetailPage },
  { path: '/operations', page: OperationListPage, nav: 'Operations' },
  { path: '/operations/:id', page: OperationDetailPage },
  { path: '/alarms', page: AlarmListPage, nav: 'Alarms' },
  { path: '/subscriptions', page: SubscriptionListPage, nav: 'Subscriptions', admin: true },
  { path: '/vims', page: VimListPage, nav: 'VIMs', admin: true },
];

/** Where /ui/ itself leads. */
export const HOME = '/packages';

export const NOT_FOUND: FunctionComponent<PageProps> = NotFoundPage;
