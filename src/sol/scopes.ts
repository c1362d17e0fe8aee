/**
 * OAuth 2.0 scopes (SOL013 §8) per API major version: `<api>:<major>:all` grants everything and
 * `<api>:<major>:readonly` grants GET/HEAD. Data, so that the store can validate a client's
 * scopes without the HTTP layer.
 */
import { API_REGISTRY } from './api-versions.ts';

export const ALL_SCOPES: readonly string[] = API_REGISTRY.flatMap((m) => [
  `${m.api}:${m.major}:all`,
  `${m.api}:${m.major}:readonly`,
]);
