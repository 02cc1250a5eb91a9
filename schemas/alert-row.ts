// One row of the `alerts` table (queries/ddl/020_alerts.sql): one notification of the lock alerter, as the
// webhook and Alertmanager got it. schemas/ddl-agreement.test.ts holds this schema and the DDL in step.
import { z } from 'zod';
import { clickhouseTime } from './clickhouse-time.js';

/** ClickHouse DateTime64(3) text `YYYY-MM-DD hh:mm:ss.mmm`. */
const dt64 = z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);

export const AlertRowSchema = z.strictObject({
  /** Alerter clock when the channel delivered the notification. */
  sent_at: dt64,
  /** Identity of the alert group: SHA-1 of the sorted label set, 16 hex (ingest/alert/alert-groups.ts). */
  fingerprint: z.string().min(1),
  /** `labels.alertname`, `labels.severity` and the rule, as columns because every query filters on them. */
  alertname: z.string().min(1),
  severity: z.string(),
  rule: z.string().min(1),
  /** `firing` or `resolved` (a string, as the column is: the DDL agreement test maps zod strings only). */
  status: z.string().regex(/^(firing|resolved)$/),
  /** 1 for a group's first notification, then 2, 3…; the resolve repeats the last number. */
  sequence: z.number().int().nonnegative(),
  /** Events in the group since it started firing. */
  count: z.number().int().nonnegative(),
  starts_at: dt64,
  /** Set when resolved. */
  ends_at: dt64.nullable(),
  labels: z.record(z.string(), z.string()),
  annotations: z.record(z.string(), z.string()),
  /** The latest example events, oldest first. */
  examples: z.array(z.record(z.string(), z.string())),
});
export type AlertRow = z.infer<typeof AlertRowSchema>;

/** ISO-8601 `2026-11-30T14:09:45.948Z` → ClickHouse `2026-11-30 14:09:45.948`. */
export const chTime = (iso: string): string => clickhouseTime(iso);
