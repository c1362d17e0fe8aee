/** A configuration problem: its message names the key (or variable) and says what is wrong. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
