// Configuration of the lock alerter: rules, grouping and channels. Every key has its unit and default
// here, and nowhere else (docs/style.md §4); this block is the user documentation.
import { z } from 'zod';

const Ms = z.number().int().nonnegative();
const HttpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL, e.g. "http://127.0.0.1:9093"' });

const RuleSchema = z.strictObject({
  /** Whether the rule runs. Default true. */
  enabled: z.boolean().default(true),
  /** `severity` label of its alerts. Default `warning`. */
  severity: z.string().min(1).default('warning'),
});

export const AlertRulesSchema = z.strictObject({
  /** TTIMEOUT: a managed-lock wait gave up (docs/tj-format.md §5.2). */
  ttimeout: RuleSchema.prefault({}),
  /** TDEADLOCK: a managed-lock cycle; the victim's transaction was rolled back (§5.3). */
  tdeadlock: RuleSchema.extend({ severity: z.string().min(1).default('critical') }).prefault({}),
  /** EXCP whose `Exception` or `Descr` contains one of `patterns` (case-insensitive): lock errors users see. */
  lock_exception: RuleSchema.extend({
    /** Substrings that mark a lock error. Default TLockException, «Конфликт блокировок», "Lock conflict". */
    patterns: z.array(z.string().min(1)).min(1).default(['TLockException', 'Конфликт блокировок', 'Lock conflict']),
  }).prefault({}),
  /** TLOCK waits (non-empty WaitConnections) per lock space and event-time minute. */
  lock_wait_rate: RuleSchema.extend({
    /** Fire when a lock space sees more than this many waits in one minute of event time. Default 100. */
    per_minute: z.number().int().positive().default(100),
  }).prefault({}),
  /** PostgreSQL `canceling statement due to lock timeout` (SQLSTATE 55P03, docs/alerting.md §3.2). */
  pg_lock_timeout: RuleSchema.prefault({}),
  /** PostgreSQL `deadlock detected` (40P01): one transaction of the cycle was rolled back. */
  pg_deadlock: RuleSchema.extend({ severity: z.string().min(1).default('critical') }).prefault({}),
  /** A PostgreSQL lock wait (log_lock_waits) that lasted longer than `threshold_ms`, however it ended. */
  pg_lock_wait: RuleSchema.extend({
    /** Fire for a wait at least this long, ms (`still waiting … after N ms`, `acquired … after N ms`). Default 5000. */
    threshold_ms: Ms.min(1).default(5000),
  }).prefault({}),
  /**
   * A PostgreSQL backend a `pg_activity` source saw blocked (pg_blocking_pids not empty) in every sample for at least
   * `threshold_ms`: fires while it is still blocked, from the samples, before log_lock_waits writes anything.
   */
  pg_blocked: RuleSchema.extend({
    /** Fire once a statement has been seen blocked this long, ms (first to latest sample). Default 5000. */
    threshold_ms: Ms.min(1).default(5000),
  }).prefault({}),
  /**
   * APDEX of a key operation (performance-evaluation export measurements) over the last `window_minutes` of
   * measurement time below its minimum acceptable level: the export's `minimalApdexValue` when it has one,
   * else `default_min_level`. Needs a target time T (the export's `targetValue`).
   */
  apdex_below_minimum: RuleSchema.extend({
    /** Sliding window, minutes of measurement time. Default 5. */
    window_minutes: z.number().int().positive().default(5),
    /** Fewer measurements than this in the window say nothing. Default 10. */
    min_measurements: z.number().int().positive().default(10),
    /** Minimum level when the export states none (docs/apdex.md bands: 0.94 Excellent, 0.85 Good, 0.7 Fair). Default 0.7. */
    default_min_level: z.number().min(0).max(1).default(0.7),
  }).prefault({}),
});

export const AlertChannelsSchema = z.strictObject({
  /** One log line per notification through the `log` callback. Default true. */
  log: z.boolean().default(true),
  /** Generic JSON webhook: POST `{ source, alerts: [...] }`. Default none. */
  webhook: z.strictObject({ url: HttpUrl }).nullable().default(null),
  /** Alertmanager base URL; alerts go to `<url>/api/v2/alerts`. Default none. */
  alertmanager: z.strictObject({
    url: HttpUrl,
    /** Re-send firing alerts this often, ms; must stay under Alertmanager's resolve_timeout (5 m). Default 60000. */
    resend_ms: Ms.min(1000).default(60_000),
  }).nullable().default(null),
  /** Insert every notification into the `alerts` table of the pipeline's store (`run`, `sink`). Default true. */
  clickhouse: z.boolean().default(true),
  /** Publish every notification to the `<topic_prefix>alerts` topic when the bus is Kafka. Default true. */
  kafka: z.boolean().default(true),
});

export const AlertDeliverySchema = z.strictObject({
  /** First retry delay after a failed POST, ms; doubles per attempt. Default 1000. */
  backoff_initial_ms: Ms.min(1).default(1000),
  /** Longest retry delay, ms. Default 60000. */
  backoff_max_ms: Ms.min(1).default(60_000),
  /** A notification still undelivered this long after it was queued is dropped (logged, counted), ms. Default 1800000 (30 min). */
  give_up_after_ms: Ms.min(1).default(1_800_000),
  /** Notifications waiting per channel, at most; the oldest is dropped (logged, counted) beyond it. Default 1000. */
  max_queue: z.number().int().positive().default(1000),
  /** Alerts per POST, at most. Default 100. */
  max_batch: z.number().int().positive().default(100),
  /** One POST's timeout, ms. Default 10000. */
  timeout_ms: Ms.min(1).default(10_000),
});

export const AlertConfigSchema = z.strictObject({
  rules: AlertRulesSchema.prefault({}),
  channels: AlertChannelsSchema.prefault({}),
  delivery: AlertDeliverySchema.prefault({}),
  /**
   * Wait before the first notification of a new alert group, ms (Alertmanager `group_wait`). Default 500:
   * a lock timeout must reach a person within seconds; later events of the group wait `group_interval_ms`.
   */
  group_wait_ms: Ms.default(500),
  /** Least gap between notifications about new events of one group, ms (`group_interval`). Default 300000. */
  group_interval_ms: Ms.default(300_000),
  /** A group with no new events for this long is resolved, ms. Default 300000. */
  resolve_after_ms: Ms.min(1).default(300_000),
  /** Groups firing at once, at most; events of further groups are dropped and counted. Default 1000. */
  max_groups: z.number().int().positive().default(1000),
  /** Example events carried per notification (the latest ones). Default 5. */
  max_examples: z.number().int().positive().default(5),
  /**
   * Connections remembered for naming culprits: latest event per (host, infobase, connectID), LRU; as many
   * PostgreSQL backends by TJ `dbpid` (to name the 1C side of a PostgreSQL lock). Default 100000. Each index
   * takes its slots up front (lru-cache), about 27 bytes an entry (2.7 MB at the default), plus the facts it holds.
   */
  index_max_entries: z.number().int().positive().default(100_000),
  /**
   * How often the alerter's timer evaluates groups and retries, ms. Default 250. A new group's first notice does not
   * wait for it: a round is woken when its group_wait_ms ends (alerter.ts).
   */
  tick_ms: Ms.min(10).default(250),
}).refine((c) => c.resolve_after_ms > c.group_wait_ms, {
  path: ['resolve_after_ms'],
  error: 'must be greater than group_wait_ms, or a group could resolve before its first notification',
});
export type AlertConfig = z.infer<typeof AlertConfigSchema>;
export type AlertConfigInput = z.input<typeof AlertConfigSchema>;
