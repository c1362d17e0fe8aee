/** The validation messages of the real server that every kind shares (names, required fields). */
import type { Cause } from '../status.ts';
import type { Obj } from '../store.ts';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function subdomainName(name: string, field = 'metadata.name'): Cause[] {
  if (DNS1123_SUBDOMAIN.test(name) && name.length <= 253) return [];
  return [
    {
      field,
      message: `Invalid value: ${JSON.stringify(name)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    },
  ];
}

export function labelName(name: string, field = 'metadata.name'): Cause[] {
  if (DNS1123_LABEL.test(name) && name.length <= 63) return [];
  return [
    {
      field,
      message: `Invalid value: ${JSON.stringify(name)}: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    },
  ];
}

export const required = (field: string): Cause => ({
  field,
  reason: 'FieldValueRequired',
  message: 'Required value',
});

/** Go's %v of a map[string]string, as "Invalid value" messages print label maps. */
export const goMap = (m: Record<string, string> | undefined) =>
  `map[string]string{${Object.entries(m ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
    .join(', ')}}`;

export function immutable(field: string, value: unknown, old: unknown): Cause[] {
  if (JSON.stringify(value) === JSON.stringify(old)) return [];
  return [{ field, message: `Invalid value: ${JSON.stringify(value)}: field is immutable` }];
}

export const asArray = (v: unknown): Obj[] => (Array.isArray(v) ? v : []);
