// Grafana provisioning for perfpipe's ClickHouse (docs/deploy.md §5), built with grafana-foundation-sdk rather than
// JSON written by hand: the ClickHouse data source (grafana-clickhouse-datasource, HTTP), a dashboard provider, and the
// live-run dashboard whose panels run the reports' own SQL (panel-sql.ts). `npm run grafana` writes the files under
// deploy/grafana/; test/grafana-dashboards.test.ts checks the committed files equal these and runs every panel.
import * as cog from '@grafana/grafana-foundation-sdk/cog';
import * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';
import * as table from '@grafana/grafana-foundation-sdk/table';
import { stringify } from 'yaml';
import { bindParams, querySql, withTimeColumn } from './panel-sql.js';

export const DATASOURCE = { type: 'grafana-clickhouse-datasource', uid: 'perfpipe-clickhouse' } as const;

/** sqlds's result formats (the plugin's `format`): a time series frame, or a table. */
const FORMAT = { timeseries: 0, table: 1 } as const;

/** A raw-SQL query of the ClickHouse data source, as its SQL editor saves it (the plugin's CHSqlQuery type). */
class ClickHouseQueryBuilder implements cog.Builder<cog.Dataquery> {
  constructor(private readonly rawSql: string, private readonly kind: keyof typeof FORMAT, private readonly refId = 'A') {}
  build(): cog.Dataquery {
    return {
      refId: this.refId, datasource: DATASOURCE, editorType: 'sql', queryType: this.kind === 'timeseries' ? 'timeseries' : 'table',
      format: FORMAT[this.kind], rawSql: this.rawSql,
    } as unknown as cog.Dataquery;
  }
}

export interface PanelSpec {
  title: string;
  description: string;
  kind: 'timeseries' | 'table';
  /** The query file it runs (`reports/<name>` is what `perfpipe report` runs too). */
  source: string;
  /** The panel's own values of report parameters (bound as literals), such as `report locks`' episode kind. */
  params?: Readonly<Record<string, string>>;
  /** Report SQL whose time column is Unix seconds `t`, given a time column for Grafana. */
  unixTime?: true;
  unit?: string;
}

export const PANELS: readonly PanelSpec[] = [
  { title: 'APDEX per key operation per minute', kind: 'timeseries', source: 'grafana/apdex-per-minute', unit: 'none',
    description: 'Each point is `perfpipe report apdex` over that minute; the series names carry each operation\'s T.' },
  { title: 'APDEX per key operation', kind: 'table', source: 'reports/apdex',
    description: '`perfpipe report apdex` over the range (or the run): N, satisfied, tolerating, frustrated against T.' },
  { title: '1C managed locks: waits, timeouts, deadlocks per minute', kind: 'timeseries', source: 'reports/tj-lock-minutes',
    description: 'From tj_lock_minute, as `perfpipe report locks` counts them.' },
  { title: '1C lock timeouts with their culprits', kind: 'table', source: 'reports/tj-lock-episodes', params: { kind: 'timeout' },
    description: 'Victim, culprit connection, its user, context and the transaction that held the lock, as the lock resolver decided them (`report locks`).' },
  { title: '1C deadlocks with their culprits', kind: 'table', source: 'reports/tj-lock-episodes', params: { kind: 'deadlock' },
    description: 'Victim, the deadlock\'s edges and each culprit\'s transaction and lock, as the lock resolver decided them (`report locks`).' },
  { title: 'PostgreSQL waits (pg_activity), seconds per minute', kind: 'timeseries', source: 'reports/pg-wait-minutes', unixTime: true, unit: 's',
    description: 'Sampled backends × interval per wait type; CPU is an active backend waiting on nothing (`report pg-waits`).' },
  { title: 'Host CPU busy %', kind: 'timeseries', source: 'reports/atop-cpu-minutes', unixTime: true, unit: 'percent',
    description: 'atop per host and minute: mean and peak of the samples.' },
  { title: 'Disk busy %', kind: 'timeseries', source: 'reports/atop-disk-minutes', unixTime: true, unit: 'percent',
    description: 'atop per host, disk and minute (whole disks).' },
];

/** The alerter's notices as annotations: time, text, tags, as the plugin reads an annotation frame. */
export const ALERTS_SOURCE = 'reports/alerts-fired';
export function alertsAnnotationSql(): string {
  return `SELECT first_sent_at AS time, concat(alertname, ' (', severity, '): ', toString(events), ' events') AS text, alertname AS tags\nFROM\n(\n${bindParams(querySql(ALERTS_SOURCE))}\n)\nORDER BY time`;
}

export function panelSql(p: PanelSpec): string {
  const sql = bindParams(querySql(p.source), p.params);
  return p.unixTime ? withTimeColumn(sql) : sql;
}

export function liveRunDashboard(): dashboard.Dashboard {
  const run = new dashboard.QueryVariableBuilder('run')
    .label('Run')
    .description('A named run (`perfpipe runs start NAME`): the panels show its window within the time range; empty: the range alone.')
    .datasource(DATASOURCE)
    .query("SELECT '' AS name UNION ALL SELECT name FROM (SELECT name FROM runs FINAL ORDER BY started_at DESC)")
    .refresh(dashboard.VariableRefresh.OnTimeRangeChanged)
    .current({ text: '', value: '' });
  const builder = new dashboard.DashboardBuilder('perfpipe: live run')
    .uid('perfpipe-live-run')
    .tags(['perfpipe', '1C', 'PostgreSQL'])
    .timezone('browser')
    .time({ from: 'now-1h', to: 'now' })
    .refresh('30s')
    .withVariable(run)
    .annotation(new dashboard.AnnotationQueryBuilder()
      .name('perfpipe alerts')
      .datasource(DATASOURCE)
      .enable(true)
      .iconColor('red')
      .target(new ClickHouseQueryBuilder(alertsAnnotationSql(), 'table')));
  for (const p of PANELS) {
    const query = new ClickHouseQueryBuilder(panelSql(p), p.kind);
    const panel = p.kind === 'timeseries'
      ? new timeseries.PanelBuilder().title(p.title).description(p.description).datasource(DATASOURCE).withTarget(query).interval('1m').height(8).span(12)
      : new table.PanelBuilder().title(p.title).description(p.description).datasource(DATASOURCE).withTarget(query).height(8).span(12);
    if (p.unit !== undefined) panel.unit(p.unit);
    builder.withPanel(panel);
  }
  return builder.build();
}

/**
 * The data source in HTTP mode. Its address and user come from the environment of the Grafana that loads the file
 * (provisioning expands $VARS): perfpipe's HTTP interface or a ClickHouse server, read-only user.
 */
export function datasourceYaml(): string {
  return `# Written by \`npm run grafana\` (scripts/grafana/dashboards.ts); do not edit by hand.\n${stringify({
    apiVersion: 1,
    datasources: [{
      name: 'perfpipe ClickHouse', uid: DATASOURCE.uid, type: DATASOURCE.type, isDefault: true, editable: false,
      jsonData: {
        protocol: 'http', host: '$PERFPIPE_CLICKHOUSE_HOST', port: '$PERFPIPE_CLICKHOUSE_PORT', username: '$PERFPIPE_GRAFANA_USER',
        defaultDatabase: 'default',
      },
      secureJsonData: { password: '$PERFPIPE_GRAFANA_PASSWORD' },
    }],
  })}`;
}

export function dashboardProviderYaml(): string {
  return `# Written by \`npm run grafana\` (scripts/grafana/dashboards.ts); do not edit by hand.\n${stringify({
    apiVersion: 1,
    providers: [{ name: 'perfpipe', folder: 'perfpipe', type: 'file', disableDeletion: true, allowUiUpdates: false,
      options: { path: '/var/lib/grafana/dashboards/perfpipe' } }],
  })}`;
}

/** Every provisioning file: path under deploy/grafana/ → content. */
export function provisioningFiles(): Record<string, string> {
  return {
    'provisioning/datasources/perfpipe-clickhouse.yaml': datasourceYaml(),
    'provisioning/dashboards/perfpipe.yaml': dashboardProviderYaml(),
    'dashboards/perfpipe-live-run.json': `${JSON.stringify(liveRunDashboard(), null, 2)}\n`,
  };
}
