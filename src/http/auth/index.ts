/** Builds the authentication mode the configuration asks for. */
import type { Config } from '../../config/load.ts';
import type { ServerKeys } from '../../security/server-keys.ts';
import type { Database } from '../../store/db/database.ts';
import { noAuthentication } from './none.ts';
import { createOAuth2Auth } from './oauth2/index.ts';
import type { AuthSetup } from './setup.ts';

export async function createAuth(config: Config, db: Database, keys: ServerKeys): Promise<AuthSetup> {
  if (config.auth.mode === 'none') return { authenticator: noAuthentication, routes: () => {} };
  return createOAuth2Auth(config, db, keys);
}
