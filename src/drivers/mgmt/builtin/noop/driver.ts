/**
 * The no-op driver: Tacker's default `vnflcm_noop`, which packages name to say "no management
 * work". Every hook answers nothing.
 */
import type { BuiltinDriver } from '../driver.ts';

export const noopDriver: BuiltinDriver = {
  name: 'noop',
  description: 'does nothing (Tacker’s vnflcm_noop)',
  hooks: {},
};
