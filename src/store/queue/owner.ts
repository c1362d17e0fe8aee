/**
 * This process's lease-owner id, the same for every job it holds (onboarding, uploads, LCM op
 * occs, notification deliveries): host and pid say where a stalled job ran, the random suffix
 * tells a restarted process with a reused pid from its predecessor.
 */

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

export const PROCESS_OWNER = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
