/** What an authentication mode gives the server; its own file so that modes need not import the chooser (index.ts). */
import type { RouteRegistrar } from '../app.ts';
import type { Authenticator } from './authenticator.ts';

export interface AuthSetup {
  authenticator: Authenticator;
  /** Routes the mode serves itself (the token endpoint, JWKS). */
  routes: RouteRegistrar;
}
