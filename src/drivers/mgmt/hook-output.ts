/**
 * Checks a hook's answer against the hook contract (hook-contract.ts) before anything uses it:
 * the shape (unknown keys are refused, so a typo is an error rather than a silent no-op), the
 * number of VNFC entries and how deeply values nest.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { HookOutput } from './hook-contract.ts';

/** Deeper JSON than this is refused (it only serves to make the server's recursion expensive). */
export const MAX_OUTPUT_DEPTH = 32;
const MAX_VNFC_ENTRIES = 10_000;

const Patch = Type.Record(Type.String({ maxLength: 1024 }), Type.Unknown());

export const HookOutputSchema = Type.Object(
  {
    vnfInstance: Type.Optional(
      Type.Object(
        {
          metadata: Type.Optional(Patch),
          extensions: Type.Optional(Patch),
          vnfConfigurableProperties: Type.Optional(Patch),
        },
        { additionalProperties: false },
      ),
    ),
    vnfcResourceInfo: Type.Optional(
      Type.Array(
        Type.Object(
          { id: Type.String({ minLength: 1, maxLength: 1024 }), metadata: Patch },
          { additionalProperties: false },
        ),
        { maxItems: MAX_VNFC_ENTRIES },
      ),
    ),
  },
  { additionalProperties: false },
);

// The schema and the published types must describe the same answer.
const sameShape: Static<typeof HookOutputSchema> extends HookOutput ? true : never = true;
void sameShape;

/** Whether objects nest more than `levels` deep (stops descending there, so deep input costs nothing). */
function nestsDeeper(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (levels === 0) return true;
  return Object.values(value as Record<string, unknown>).some((child) => nestsDeeper(child, levels - 1));
}

/** The answer as a HookOutput, or why it is not one (the first problems, with their JSON paths). */
export function checkHookOutput(value: unknown): { output: HookOutput } | { problem: string } {
  if (nestsDeeper(value, MAX_OUTPUT_DEPTH))
    return { problem: `its answer nests deeper than ${MAX_OUTPUT_DEPTH} levels` };
  if (Value.Check(HookOutputSchema, value)) return { output: value };
  const problems = [...Value.Errors(HookOutputSchema, value)]
    .slice(0, 3)
    .map((e) => `${e.path || '/'}: ${e.message}`);
  return {
    problem: `its answer does not follow the hook contract (${problems.join('; ')}); it may have vnfInstance.metadata, vnfInstance.extensions, vnfInstance.vnfConfigurableProperties and vnfcResourceInfo [{id, metadata}]`,
  };
}
