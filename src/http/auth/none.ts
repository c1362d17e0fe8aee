/**
 * auth.mode none: every caller is an administrator of the default project. Whatever token the
 * client sends (the Tacker client always sends `X-Auth-Token: notused`) is ignored.
 */

import type { Authenticator } from './authenticator.ts';
import { ANONYMOUS_ADMIN } from './caller.ts';

export const noAuthentication: Authenticator = {
  authenticate: () => ANONYMOUS_ADMIN,
};
