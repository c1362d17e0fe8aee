/**
 * Bounds on Heat templates, which come from untrusted packages: a BaseHOT folder is read whole
 * into memory and sent to Heat on every stack operation.
 */
export interface HotLimits {
  /** Largest single template file. */
  maxFileBytes: number;
  /** Most files in a flavour's BaseHOT folder (top template and nested ones). */
  maxFiles: number;
  /** Largest sum of a flavour's template files. */
  maxTotalBytes: number;
  /** YAML aliases a template may use (billion-laughs expansion). */
  maxAliases: number;
  /** Deepest nesting of a template's values. */
  maxDepth: number;
}

export const HOT_LIMITS: HotLimits = {
  maxFileBytes: 1024 * 1024,
  maxFiles: 100,
  maxTotalBytes: 4 * 1024 * 1024,
  maxAliases: 100,
  maxDepth: 64,
};
