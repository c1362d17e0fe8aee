/**
 * Every migration, in order. A migration is added here, never edited once released: the
 * name is what the migration table records.
 */
import type { Migration } from 'kysely/migration';
import * as foundation from './0001-foundation.ts';
import * as vnfPackages from './0002-vnf-packages.ts';
import * as subscriptionsOutbox from './0003-subscriptions-outbox.ts';
import * as notificationDelivery from './0004-notification-delivery.ts';
import * as subscriptionDedup from './0005-subscription-dedup.ts';
import * as simVim from './0006-sim-vim.ts';
import * as lcm from './0007-lcm.ts';
import * as lcmV1 from './0008-lcm-v1.ts';
import * as opOccOrder from './0009-op-occ-order.ts';
import * as alarms from './0010-alarms.ts';
import * as openstackImages from './0011-openstack-images.ts';
import * as nfvoPackages from './0012-nfvo-packages.ts';
import * as placementAttempts from './0013-placement-attempts.ts';
import * as autoHeals from './0014-auto-heals.ts';
import * as vimCheck from './0015-vim-check.ts';
import * as opEvents from './0020-op-events.ts';
import * as replicas from './0021-replicas.ts';

export const MIGRATIONS: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-vnf-packages': vnfPackages,
  '0003-subscriptions-outbox': subscriptionsOutbox,
  '0004-notification-delivery': notificationDelivery,
  '0005-subscription-dedup': subscriptionDedup,
  '0006-sim-vim': simVim,
  '0007-lcm': lcm,
  '0008-lcm-v1': lcmV1,
  '0009-op-occ-order': opOccOrder,
  '0010-alarms': alarms,
  '0011-openstack-images': openstackImages,
  '0012-nfvo-packages': nfvoPackages,
  '0013-placement-attempts': placementAttempts,
  '0014-auto-heals': autoHeals,
  '0015-vim-check': vimCheck,
  '0020-op-events': opEvents,
  '0021-replicas': replicas,
};
