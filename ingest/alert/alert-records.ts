// The channels that keep notices as records rather than wake a person: the `<prefix>alerts` Kafka topic
// (for other consumers: chat relays, ticketing) and the `alerts` ClickHouse table (history to query).
// Each is a SendBatch, so it gets the delivery queue's retries, backoff and drop accounting.
import type { ClickHouseClient } from '@clickhouse/client';
import { type AlertRow, AlertRowSchema, chTime } from '../../schemas/alert-row.js';
import { isPermanentInsertError } from '../sink/clickhouse-sink.js';
import type { AlertNotice } from './alert-groups.js';
import type { SendBatch } from './alert-channels.js';
import { AlertDeliveryError } from './delivery-error.js';

/** One Kafka record: keyed by fingerprint, so one group's notices stay in order on one partition. */
export interface AlertRecord {
  key: string;
  /** JSON: `{ source: "perfpipe", status, fingerprint, labels, annotations, count, sequence, examples, startsAt, endsAt? }`. */
  value: string;
}

/** Publishes records to the alerts topic; resolves once the broker acked them (KafkaBus.publishAlerts). */
export type PublishAlerts = (records: AlertRecord[]) => Promise<void>;

export function alertRecords(notices: AlertNotice[]): AlertRecord[] {
  return notices.map((n) => ({
    key: n.fingerprint,
    value: JSON.stringify({
      source: 'perfpipe', status: n.status, fingerprint: n.fingerprint, labels: n.labels, annotations: n.annotations,
      count: n.count, sequence: n.sequence, examples: n.examples, startsAt: n.startsAt, ...(n.endsAt ? { endsAt: n.endsAt } : {}),
    }),
  }));
}

/** A failed publish is retried unless the bus says retrying cannot help (stopped, bad config). */
export function kafkaChannel(publish: PublishAlerts): SendBatch {
  return async (notices) => {
    try {
      await publish(alertRecords(notices));
    } catch (cause) {
      const permanent = (cause as { permanent?: unknown }).permanent === true;
      throw new AlertDeliveryError(`kafka: publishing ${notices.length} alert(s) failed: ${(cause as Error).message}`, 'kafka', { cause, permanent });
    }
  };
}

export function alertNoticeToRow(n: AlertNotice, now: number): AlertRow {
  return {
    sent_at: chTime(new Date(now).toISOString()), fingerprint: n.fingerprint, alertname: n.labels.alertname ?? n.rule,
    severity: n.labels.severity ?? '', rule: n.rule, status: n.status, sequence: n.sequence, count: n.count,
    starts_at: chTime(n.startsAt), ends_at: n.endsAt ? chTime(n.endsAt) : null,
    labels: n.labels, annotations: n.annotations, examples: n.examples,
  };
}

/** Inserts one row per notice; ClickHouse's bad-data codes are permanent (the same list as the segment sink). */
export function clickhouseChannel(client: ClickHouseClient, table = 'alerts'): SendBatch {
  return async (notices, now) => {
    const values = notices.map((n) => AlertRowSchema.parse(alertNoticeToRow(n, now)));
    try {
      await client.insert({ table, values, format: 'JSONEachRow' });
    } catch (cause) {
      throw new AlertDeliveryError(`clickhouse: inserting ${values.length} row(s) into ${table} failed: ${(cause as Error).message.slice(0, 300)}`,
        'clickhouse', { cause, permanent: isPermanentInsertError(cause) });
    }
  };
}
