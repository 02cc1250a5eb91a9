// What a panel's SQL becomes before it reaches ClickHouse: Grafana interpolates the dashboard variables, then the
// ClickHouse data source expands its $__ macros. The macros are written here after the plugin's own code
// (grafana/clickhouse-datasource, pkg/macros/macros.go, Apache-2.0): the Go module is not served by the module proxy
// this project can reach, so its functions cannot be called from a Go program here (docs/deploy.md §5).
export interface PanelContext {
  from: Date;
  to: Date;
  /** Grafana's $__interval for the panel, ms. */
  intervalMs: number;
  /** Dashboard variables by name (single values). */
  variables: Record<string, string>;
}

const unix = (d: Date): number => Math.floor(d.getTime() / 1000);
const dateTime = (d: Date): string => `toDateTime(${unix(d)})`;
const dateTime64 = (d: Date): string => `fromUnixTimestamp64Milli(${d.getTime()})`;

type Macro = (c: PanelContext, args: string[]) => string;

function arity(name: string, want: number, f: Macro): Macro {
  return (c, args) => {
    if (args.length !== want) throw new Error(`${name} expected ${want} argument(s), received ${args.length}`);
    return f(c, args);
  };
}

/** The plugin's ClickHouseMacros that panels may use (the statement macros $__columns… are not used here). */
const MACROS: Record<string, Macro> = {
  fromTime: (c) => dateTime(c.from),
  toTime: (c) => dateTime(c.to),
  fromTime_ms: (c) => dateTime64(c.from),
  toTime_ms: (c) => dateTime64(c.to),
  timeFilter: arity('$__timeFilter', 1, (c, [col]) => `${col} >= ${dateTime(c.from)} AND ${col} <= ${dateTime(c.to)}`),
  timeFilter_ms: arity('$__timeFilter_ms', 1, (c, [col]) => `${col} >= ${dateTime64(c.from)} AND ${col} <= ${dateTime64(c.to)}`),
  timeInterval: arity('$__timeInterval', 1, (c, [col]) => `toStartOfInterval(toDateTime(${col}), INTERVAL ${Math.trunc(Math.max(c.intervalMs / 1000, 1))} second)`),
  interval_s: (c) => String(Math.trunc(Math.max(c.intervalMs / 1000, 1))),
};

/** Grafana's `sqlstring` format: quoted, a quote doubled. */
const sqlString = (v: string): string => `'${v.replace(/'/g, "''")}'`;

/** `$name`, `${name}` and `${name:sqlstring}` of the dashboard's variables, as Grafana interpolates a single value. */
export function interpolateVariables(sql: string, variables: Record<string, string>): string {
  return sql.replace(/\$\{(\w+)(?::(\w+))?\}|\$(?!__)(\w+)/g, (whole, braced?: string, format?: string, bare?: string) => {
    const name = braced ?? bare ?? '';
    const value = variables[name];
    if (value === undefined) return whole;
    if (format === undefined) return value;
    if (format === 'sqlstring') return sqlString(value);
    throw new Error(`variable format ${format} is not modelled here`);
  });
}

/** `$__name` or `$__name(args)`: the plugin's expansion, longest names first so `fromTime_ms` is not `fromTime`. */
export function expandMacros(sql: string, c: PanelContext): string {
  const names = Object.keys(MACROS).sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`\\$__(${names.join('|')})\\b(\\(([^()]*)\\))?`, 'g');
  return sql.replace(pattern, (_, name: string, call?: string, args?: string) =>
    (MACROS[name] as Macro)(c, call === undefined ? [] : (args ?? '').split(',').map((a) => a.trim()).filter((a) => a !== '')));
}

/** The SQL ClickHouse receives for a panel. */
export function expandPanelSql(sql: string, c: PanelContext): string {
  return expandMacros(interpolateVariables(sql, c.variables), c);
}
