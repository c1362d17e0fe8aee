/**
 * What one API major's subscription resource is: everything the generic mechanism needs to
 * serve `/<api>/<major>/subscriptions` (create, list, show, delete) — the filter schema (request
 * validation, list-filter vocabulary and API documentation at once), the checks a schema cannot
 * express, the notification types, and whether the subscription carries a verbosity.
 */
import type { TSchema } from '@sinclair/typebox';
import type { ApiName } from '../../sol/api-versions.ts';

export interface SubscriptionApi {
  api: ApiName;
  major: string;
  /** SOL names of the representation and the request, for the API documentation. */
  representation: string;
  request: string;
  /** JSON schema of the API's notifications filter. */
  filterSchema: TSchema;
  /** Why a schema-valid filter is still refused (e.g. two alternative attributes), or undefined. */
  filterProblem?: (filter: never) => string | undefined;
  notificationTypes: readonly string[];
  /**
   * `stored`: the request may carry verbosity (FULL or SHORT, default FULL), kept and returned
   * (LCM v2). `ignored`: accepted for compatibility, neither kept nor returned. Absent: refused.
   */
  verbosity?: 'stored' | 'ignored';
}

export const VERBOSITIES = ['FULL', 'SHORT'] as const;
export type Verbosity = (typeof VERBOSITIES)[number];
