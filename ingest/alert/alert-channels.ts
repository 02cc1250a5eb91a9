// Wire formats of the channels: a generic JSON webhook and Alertmanager's client API (docs/alerting.md §2.1),
// each a function that POSTs a batch of notices and throws AlertDeliveryError on failure.
import type { AlertNotice } from './alert-groups.js';
import { AlertDeliveryError } from './delivery-error.js';

export type SendBatch = (notices: AlertNotice[], now: number) => Promise<void>;

/** Webhook body: every notice in full, examples included, so a chat relay can render it without lookups. */
export function webhookBody(notices: AlertNotice[]): unknown {
  return {
    source: 'perfpipe',
    alerts: notices.map((n) => ({
      status: n.status, fingerprint: n.fingerprint, labels: n.labels, annotations: n.annotations, count: n.count,
      sequence: n.sequence, examples: n.examples, startsAt: n.startsAt, ...(n.endsAt ? { endsAt: n.endsAt } : {}),
    })),
  };
}

/**
 * `postableAlerts`: labels (identity), annotations (latest details, strings only), startsAt, endsAt.
 * A firing alert's endsAt is now + 3 re-send periods, as Prometheus does: should perfpipe stop sending,
 * Alertmanager resolves it by itself instead of after its resolve_timeout; a resolved one ends now.
 */
export function alertmanagerBody(notices: AlertNotice[], now: number, resendMs: number): unknown {
  return notices.map((n) => ({
    labels: n.labels,
    annotations: n.annotations,
    startsAt: n.startsAt,
    endsAt: n.endsAt ?? new Date(now + 3 * resendMs).toISOString(),
  }));
}

export function logLine(n: AlertNotice): string {
  const labels = Object.entries(n.labels).filter(([k]) => k !== 'alertname').map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
  const last = n.examples[n.examples.length - 1];
  return `alert ${n.status} ${n.labels.alertname} ${labels} count=${n.count}: ${n.annotations.summary}${last ? ` · last ${JSON.stringify(last)}` : ''}`;
}

/** POSTs JSON; 4xx other than 408/429 is permanent (the receiver will not take this body), the rest retries. */
export function postJson(channel: string, url: string, timeoutMs: number): (body: unknown) => Promise<void> {
  return async (body) => {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new AlertDeliveryError(`${channel}: POST ${url} failed: ${(cause as Error).message}`, channel, { cause });
    }
    const text = await res.text().catch(() => '');
    if (res.ok) return;
    const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
    throw new AlertDeliveryError(`${channel}: POST ${url} answered ${res.status}: ${text.slice(0, 200)}`, channel, { permanent });
  };
}
