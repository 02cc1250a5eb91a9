// The lock alerter's public surface: what `run` and `sink` wire in (issue "Alerts on lock timeouts").
export { type Alerter, type AlerterDeps, createAlerter } from './alerter.js';
export { type AlertConfig, type AlertConfigInput, AlertConfigSchema } from './config.js';
export { type AlertNotice } from './alert-groups.js';
export { type DeadlockEdge, parseDeadlockEdges } from '../../parsers/tj/locks/deadlock-edges.js';
export { type AlertRecord, type PublishAlerts, alertNoticeToRow, alertRecords } from './alert-records.js';
