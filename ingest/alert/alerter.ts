// The lock alerter: reads every tj, pg, pg_activity and apdex segment as it passes (observe), folds lock findings into alert
// groups, and on each tick notifies the log, a webhook, Alertmanager, the alerts topic and the alerts table
// with grouping, re-sends and retries.
import type { ClickHouseClient } from '@clickhouse/client';
import type { Segment } from '../bus/bus.js';
import type { Metrics } from '../observe/metrics.js';
import { describeIssues } from '../errors/config-issues.js';
import { ConfigError } from '../errors/errors.js';
import { type AlertNotice, AlertGroups } from './alert-groups.js';
import { alertmanagerBody, logLine, postJson, webhookBody } from './alert-channels.js';
import { AlertConfigSchema, type AlertConfigInput } from './config.js';
import { DeliveryQueue, type DeliveryHooks } from './delivery-queue.js';
import { type Finding, LockFacts } from './lock-facts.js';
import { PgLockFacts } from './pg-lock-facts.js';
import { ApdexFacts } from './apdex-facts.js';
import { PgActivityFacts } from './pg-activity-facts.js';
import { apdexFacts as apdexRows, pgActivityFacts as pgActivityRows, pgFacts as pgRows, tjFacts as tjRows } from './segment-facts.js';
import { clickhouseChannel, kafkaChannel, type PublishAlerts } from './alert-records.js';

export interface AlerterDeps {
  metrics: Metrics;
  /** Where log-channel notices and delivery problems go, one line each. Default: stderr. */
  log?: (line: string) => void;
  /** Clock in ms since the epoch. Default Date.now. */
  now?: () => number;
  /** No internal timer: the caller drives `tick()` (tests with a fake clock). Default false. */
  manual?: boolean;
  /** The store's client: with `channels.clickhouse`, every notice becomes a row of `alerts`. Default none. */
  store?: ClickHouseClient;
  /** Publishes to the `<prefix>alerts` topic (KafkaBus.publishAlerts): with `channels.kafka`. Default none. */
  publishAlerts?: PublishAlerts;
}

export interface Alerter {
  /** Reads a segment's events. Synchronous and cheap; never throws; ignores atop. */
  observe(segment: Segment): void;
  /** Evaluates groups, queues notices and sends what is due; resolves when this round's POSTs settled. */
  tick(): Promise<void>;
  /** Sends what waits (pending groups ignore group_wait, queues ignore backoff) once, reports the rest. Safe twice. */
  stop(): Promise<void>;
}

const HELP = {
  events: 'TJ and PostgreSQL events that matched an alert rule',
  eventsDropped: 'Matching events dropped because max_groups alert groups were already open',
  fired: 'Alert groups that started firing (first notification)',
  resolved: 'Alert groups resolved after resolve_after_ms without events',
  sent: 'Alert notices delivered to a channel',
  failed: 'Alert notices whose delivery attempt failed (retried unless dropped)',
  dropped: 'Alert notices given up: retries exhausted, rejected, queue full or undelivered at stop',
  queue: 'Alert notices waiting for delivery',
  errors: 'Segments or rounds the alerter failed on (a bug; the pipeline goes on)',
} as const;

/** Segment ids remembered to skip redeliveries: enough for a Kafka rebalance's worth of replays. */
const SEEN_SEGMENTS = 10_000;

export function createAlerter(input: AlertConfigInput, deps: AlerterDeps): Alerter {
  const parsed = AlertConfigSchema.safeParse(input);
  if (!parsed.success) throw new ConfigError(`alerts: ${describeIssues(parsed.error, input).join('; ')}`);
  const config = parsed.data;
  const { metrics } = deps;
  const log = deps.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const clock = deps.now ?? Date.now;
  const facts = new LockFacts(config);
  const pgFacts = new PgLockFacts(config, facts.dbpids, facts.index);
  const apdexFacts = new ApdexFacts(config);
  const activityFacts = new PgActivityFacts(config, facts.dbpids, facts.index);
  const groups = new AlertGroups(config);
  const findings: Finding[] = [];
  const seen = new Set<string>();

  const hooks = (channel: string): DeliveryHooks => ({
    sent: (n) => metrics.inc('perfpipe_alert_notifications_sent_total', HELP.sent, { channel }, n),
    failed: (n, err) => {
      metrics.inc('perfpipe_alert_notifications_failed_total', HELP.failed, { channel }, n);
      log(`alert delivery failed (${n} notice(s)${err.permanent ? ', permanent' : ', will retry'}): ${err.message}`);
    },
    dropped: (notice, reason, detail) => {
      metrics.inc('perfpipe_alert_notifications_dropped_total', HELP.dropped, { channel, reason });
      log(`alert notice dropped (${channel}, ${reason}): ${detail}; it was: ${logLine(notice)}`);
    },
  });
  const queues: DeliveryQueue[] = [];
  const { webhook, alertmanager } = config.channels;
  if (webhook) {
    const post = postJson('webhook', webhook.url, config.delivery.timeout_ms);
    queues.push(new DeliveryQueue('webhook', (n) => post(webhookBody(n)), config.delivery, hooks('webhook')));
  }
  let am: DeliveryQueue | undefined;
  const amSentAt = new Map<string, number>();
  if (alertmanager) {
    const post = postJson('alertmanager', `${alertmanager.url.replace(/\/+$/, '')}/api/v2/alerts`, config.delivery.timeout_ms);
    am = new DeliveryQueue('alertmanager', (n, now) => post(alertmanagerBody(n, now, alertmanager.resend_ms)), config.delivery, hooks('alertmanager'));
    queues.push(am);
  }
  if (config.channels.kafka && deps.publishAlerts) {
    queues.push(new DeliveryQueue('kafka', kafkaChannel(deps.publishAlerts), config.delivery, hooks('kafka')));
  }
  if (config.channels.clickhouse && deps.store) {
    queues.push(new DeliveryQueue('clickhouse', clickhouseChannel(deps.store), config.delivery, hooks('clickhouse')));
  }

  function deliver(n: AlertNotice, now: number): void {
    if (config.channels.log) {
      log(logLine(n));
      metrics.inc('perfpipe_alert_notifications_sent_total', HELP.sent, { channel: 'log' });
    }
    for (const q of queues) q.enqueue(n, now);
    if (n.status === 'resolved') amSentAt.delete(n.fingerprint);
    else amSentAt.set(n.fingerprint, now);
  }

  async function round(flushAll: boolean): Promise<void> {
    const now = clock();
    const ev = groups.evaluate(now);
    const pending = flushAll ? groups.flush(now) : [];
    for (const n of [...ev.notify, ...pending]) {
      if (n.sequence === 1) metrics.inc('perfpipe_alerts_fired_total', HELP.fired, { rule: n.rule });
      deliver(n, now);
    }
    for (const n of ev.resolved) {
      metrics.inc('perfpipe_alerts_resolved_total', HELP.resolved, { rule: n.rule });
      deliver(n, now);
    }
    // Alertmanager forgets an alert not re-sent within its endsAt; webhooks only hear about changes.
    if (am && alertmanager) {
      for (const n of ev.firing) {
        if (now - (amSentAt.get(n.fingerprint) ?? 0) < alertmanager.resend_ms) continue;
        am.enqueue(n, now);
        amSentAt.set(n.fingerprint, now);
      }
    }
    await Promise.all(queues.map((q) => q.pump(now, flushAll)));
    for (const q of queues) metrics.set('perfpipe_alert_queue', HELP.queue, { channel: q.channel }, q.size);
  }

  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  // Rounds run one after another; a failing round is logged and the next one starts clean.
  const run = (flushAll: boolean) => round(flushAll).catch((err: unknown) => {
    metrics.inc('perfpipe_alert_errors_total', HELP.errors);
    log(`alerter round failed: ${(err as Error).stack ?? String(err)}`);
  });
  const tick = (): Promise<void> => (chain = chain.then(() => run(false)));
  const timer = deps.manual ? undefined : setInterval(() => void tick(), config.tick_ms);
  timer?.unref();
  // A new group's first notice is due group_wait_ms after its first event: a round is woken for that moment
  // instead of waiting for the next tick, which added up to tick_ms (250) to every first alert
  // (bench/alert-latency.ts: p99 943–1,008 ms with the tick alone). One wake-up is pending at a time, the earliest.
  let wake: NodeJS.Timeout | undefined;
  let wakeAt = Number.POSITIVE_INFINITY;
  const wakeFor = (at: number): void => {
    if (deps.manual || stopped || at >= wakeAt) return;
    clearTimeout(wake);
    wakeAt = at;
    wake = setTimeout(() => {
      wakeAt = Number.POSITIVE_INFINITY;
      void tick();
    }, Math.max(0, at - clock()) + 1); // + 1: timers count on another clock than Date.now, and may fire a ms short
    wake.unref();
  };

  return {
    observe(segment) {
      if (stopped || segment.family === 'atop') return;
      // At-least-once buses redeliver a segment over exactly the same range (bus.ts): count it once.
      if (seen.has(segment.id)) return;
      seen.add(segment.id);
      if (seen.size > SEEN_SEGMENTS) seen.delete(seen.values().next().value!);
      try {
        const now = clock();
        if (segment.family === 'apdex') apdexFacts.read(segment.host, apdexRows(segment), findings);
        else if (segment.family === 'pg_activity') activityFacts.read(segment.host, pgActivityRows(segment), findings);
        else if (segment.family === 'pg') pgFacts.read(segment.host, pgRows(segment), findings);
        else for (const e of tjRows(segment)) facts.read(segment.host, e, findings);
        if (findings.length === 0) return;
        // Counted per segment, not per event: a metrics call stringifies its labels.
        const matched = new Map<string, number>();
        const dropped = new Map<string, number>();
        for (const f of findings) {
          matched.set(f.rule, (matched.get(f.rule) ?? 0) + f.count);
          if (!groups.add(f, now)) dropped.set(f.rule, (dropped.get(f.rule) ?? 0) + f.count);
        }
        // Due for a group this segment started; for the others, a round with nothing due (at most one a wait).
        wakeFor(now + config.group_wait_ms);
        for (const [rule, n] of matched) metrics.inc('perfpipe_alert_events_total', HELP.events, { rule }, n);
        for (const [rule, n] of dropped) metrics.inc('perfpipe_alert_events_dropped_total', HELP.eventsDropped, { rule }, n);
      } catch (err) {
        metrics.inc('perfpipe_alert_errors_total', HELP.errors);
        log(`alerter could not read segment ${segment.id}: ${(err as Error).stack ?? String(err)}`);
      } finally {
        findings.length = 0;
      }
    },
    tick,
    async stop() {
      if (stopped) return chain;
      stopped = true;
      if (timer) clearInterval(timer);
      clearTimeout(wake);
      chain = chain.then(() => run(true)).then(() => { for (const q of queues) q.abandon(); });
      return chain;
    },
  };
}
