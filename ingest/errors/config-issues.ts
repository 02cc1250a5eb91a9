// How a configuration that does not parse is told: every zod issue as one `path: message` line. Beside the errors
// so that each component's own config check (the alerts, the whole config file) words its issues the same way.
import type { z } from 'zod';

/** Formats zod issues as `path: message` lines, all at once (docs/style.md §4). */
export function describeIssues(error: z.ZodError, input: unknown): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '');
    const where = path || '(top level)';
    const found = valueAt(input, issue.path);
    if (issue.code === 'unrecognized_keys') {
      return `${where}: unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    }
    if (issue.code === 'invalid_type') {
      const expected = `expected ${issue.expected === 'object' ? 'a mapping' : issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}`;
      return found === undefined ? `${where}: is required; ${expected}` : `${where}: ${JSON.stringify(found)} is not valid; ${expected}`;
    }
    if (issue.code === 'invalid_union' && /discriminator/i.test(issue.message)) {
      const options = /Expected (.*)$/.exec(issue.message)?.[1]?.split(' | ').map((o) => o.replaceAll("'", '"')).join(', ');
      return `${where}: ${JSON.stringify(found)} is not known; expected one of ${options}`;
    }
    return `${where}: ${issue.message}`;
  });
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v: unknown = input;
  for (const k of path) v = v === null || typeof v !== 'object' ? undefined : (v as Record<PropertyKey, unknown>)[k];
  return v;
}
