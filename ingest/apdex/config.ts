// Key-operation settings for `report apdex` (issue #5 items 1b, 2; docs/apdex.md §1–§3): operations measured from TJ
// CALL events by a context rule, and overrides of what the performance-evaluation export says (T, priority, minimum
// level). Every key has its unit and default here, and nowhere else (docs/style.md §4); this block is the user documentation.
import { z } from 'zod';

/** T in whole 10 ms (SSL keeps T as Number 15.2): the per-minute rollups count runs in 10 ms buckets, exact for such T. */
const TargetSeconds = z.number().positive().refine((t) => Math.abs(Math.round(t * 100) - t * 100) < 1e-6, {
  error: 'expected seconds in whole hundredths (e.g. 0.25), the precision of 1C key-operation targets',
});

/** A regular expression as ClickHouse's `match` reads it (RE2): checked here with JavaScript's syntax, which agrees on the common subset. */
const Regex = z.string().min(1).refine((re) => {
  try {
    new RegExp(re, 'u');
    return true;
  } catch {
    return false;
  }
}, { error: 'is not a valid regular expression' });

export const KeyOperationConfigSchema = z.strictObject({
  /** Key-operation name as reports show it; for an export operation, its technical name (`nameFull`). Required. */
  name: z.string().min(1),
  /**
   * TJ CALLs whose context's first line (a form or command, `Форма.Записать : Документ.X.ФормаОбъекта`) starts with
   * this text are this operation. Set `context` or `context_regex` for an operation measured from the TJ; set
   * neither to only override an export operation's settings. Default unset.
   */
  context: z.string().min(1).optional(),
  /** As `context`, but the first line must match this regular expression (RE2, unanchored: use `^` to anchor). Default unset. */
  context_regex: Regex.optional(),
  /** Only CALLs of this infobase (`p:processName`). Default: every infobase. */
  infobase: z.string().min(1).optional(),
  /** Target time T, seconds: satisfied d ≤ T, tolerating d ≤ 4T. Required for a TJ operation; wins over the export's T. */
  target_s: TargetSeconds.optional(),
  /** Priority, 1 = most important; weights the 1C overall APDEX (docs/apdex.md §2.1). Default: the export's, else none. */
  priority: z.number().int().min(1).optional(),
  /** Minimum acceptable APDEX (1C levels 1, 0.94, 0.85, 0.7, 0.5); the report says whether it is met. Default: the export's, else none. */
  min_apdex: z.number().min(0).max(1).optional(),
});
export type KeyOperationConfig = z.infer<typeof KeyOperationConfigSchema>;

export const ApdexConfigSchema = z.strictObject({
  /**
   * Key operations, in order: a CALL belongs to the first TJ operation whose rule it matches, so it is counted once.
   * Default none: `report apdex` shows the export's operations with the export's settings.
   */
  operations: z.array(KeyOperationConfigSchema).default([]),
}).superRefine((config, ctx) => {
  const seen = new Map<string, number>();
  config.operations.forEach((op, i) => {
    const tj = op.context !== undefined || op.context_regex !== undefined;
    if (op.context !== undefined && op.context_regex !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['operations', i, 'context_regex'], message: 'set either context or context_regex, not both' });
    }
    // docs/apdex.md §3: a TJ signature has no T of its own, and N/A is not an APDEX.
    if (tj && op.target_s === undefined) {
      ctx.addIssue({ code: 'custom', path: ['operations', i, 'target_s'], message: `is required for an operation measured from the TJ (${JSON.stringify(op.name)})` });
    }
    if (!tj && op.infobase !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['operations', i, 'infobase'], message: 'applies only with context or context_regex' });
    }
    if (!tj && op.target_s === undefined && op.priority === undefined && op.min_apdex === undefined) {
      ctx.addIssue({ code: 'custom', path: ['operations', i], message: 'sets nothing; expected context or context_regex, or target_s, priority or min_apdex' });
    }
    const first = seen.get(op.name);
    if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['operations', i, 'name'], message: `${JSON.stringify(op.name)} is already operations[${first}]` });
    else seen.set(op.name, i);
  });
});
export type ApdexConfig = z.infer<typeof ApdexConfigSchema>;
