// `--alert-webhook URL` and `--alertmanager URL` on `run` and `sink`: the simple case of the `alerts`
// config section (ingest/alert/config.ts), overriding the file's channels.
import type { ConfigInput } from '../../ingest/config/config.js';

export const ALERT_OPTIONS = {
  'alert-webhook': { type: 'string' },
  alertmanager: { type: 'string' },
} as const;

export function applyAlertFlags(base: ConfigInput, values: { 'alert-webhook'?: string | undefined; alertmanager?: string | undefined }): void {
  if (!values['alert-webhook'] && !values.alertmanager) return;
  const alerts = { ...(base.alerts ?? {}) };
  const channels = { ...(alerts.channels ?? {}) };
  if (values['alert-webhook']) channels.webhook = { url: values['alert-webhook'] };
  if (values.alertmanager) channels.alertmanager = { url: values.alertmanager };
  alerts.channels = channels;
  base.alerts = alerts;
}
