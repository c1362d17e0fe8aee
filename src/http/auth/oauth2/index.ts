/** auth.mode oauth2 — placeholder until the OAuth 2.0 implementation lands in this folder. */
import type { Config } from '../../../config/load.ts';
import type { ServerKeys } from '../../../security/server-keys.ts';
import type { Database } from '../../../store/db/database.ts';
import type { AuthSetup } from '../index.ts';

export async function createOAuth2Auth(
  _config: Config,
  _db: Database,
  _keys: ServerKeys,
): Promise<AuthSetup> {
  throw new Error('auth.mode oauth2 is not available yet');
}
