// The DDL of a sharded (and optionally replicated) ClickHouse cluster, derived statement by statement from the
// single-node migrations in queries/ddl/*.sql, so that a table added there is covered here without a second copy
// (docs/deploy.md §3). Each table becomes `<name>_local` on every node (MergeTree, or Replicated* with the
// {shard}/{replica} macros) and a Distributed table under the table's own name, which reports, Grafana and the
// sinks use unchanged; materialized views fill the local rollups from the local tables; every statement is ON CLUSTER.
import type { Migration } from './migrations.js';

export interface ClusterOptions {
  /** The cluster's name in the servers' `remote_servers`. */
  cluster: string;
  /** Replicated* engines (needs Keeper, and the {shard} and {replica} macros on every node). */
  replicated: boolean;
}

export const LOCAL_SUFFIX = '_local';

/** The Keeper path of a replicated local table: one per shard, database and table (ClickHouse fills the macros). */
export const REPLICA_PATH = "'/clickhouse/tables/{shard}/{database}/{table}', '{replica}'";

/** Tables created so far, with what the Distributed table needs: the sharding key. */
type Known = Map<string, { shardingKey: string }>;

/**
 * Statements of one single-node migration, rewritten for the cluster. `known` collects the tables created by earlier
 * migrations: an ALTER or a view names them.
 */
export function clusterStatements(m: Migration, o: ClusterOptions, known: Known = new Map()): string[] {
  assertIdentifier(o.cluster);
  return m.statements.flatMap((s) => {
    try {
      return rewrite(s, o, known);
    } catch (error) {
      throw new Error(`${m.name}: ${(error as Error).message}\n  in: ${s.slice(0, 120).replace(/\s+/g, ' ')}…`, { cause: error });
    }
  });
}

/** Every migration's cluster statements, in order, with the migration each came from. */
export function clusterMigrations(migrations: readonly Migration[], o: ClusterOptions): Migration[] {
  const known: Known = new Map();
  return migrations.map((m) => ({ ...m, statements: clusterStatements(m, o, known) }));
}

function assertIdentifier(name: string): void {
  if (!/^[A-Za-z_][\w-]*$/.test(name)) throw new Error(`cluster name ${JSON.stringify(name)} is not a plain identifier (letters, digits, _ and -)`);
}

const CREATE_TABLE = /^CREATE\s+TABLE\s+IF\s+NOT\s+EXISTS\s+(\w+)\s*\(/i;
const CREATE_MV = /^CREATE\s+MATERIALIZED\s+VIEW\s+IF\s+NOT\s+EXISTS\s+(\w+)\s+TO\s+(\w+)\s+AS\s+([\s\S]*)$/i;
const CREATE_VIEW = /^CREATE\s+VIEW\s+IF\s+NOT\s+EXISTS\s+(\w+)\s+AS\s+([\s\S]*)$/i;
const REPLACE_VIEW = /^CREATE\s+OR\s+REPLACE\s+VIEW\s+(\w+)\s+AS\s+([\s\S]*)$/i;
const ALTER_TABLE = /^ALTER\s+TABLE\s+(\w+)\s+([\s\S]*)$/i;
const INSERT_SELECT = /^INSERT\s+INTO\s+(\w+)\s*(?:\([^)]*\))?\s*SELECT\b/i;

function rewrite(statement: string, o: ClusterOptions, known: Known): string[] {
  const on = `ON CLUSTER ${o.cluster}`;
  let m = CREATE_TABLE.exec(statement);
  if (m) return createTable(m[1] as string, statement, m[0].length - 1, o, known);
  m = CREATE_MV.exec(statement);
  if (m) {
    const [, view, target, select] = m as unknown as [string, string, string, string];
    if (!known.has(target)) throw new Error(`the view's target ${target} is no table created before it`);
    // The view fires on the inserts into its source's local table on each node and writes that node's rollup;
    // any other table it reads (a JOIN) stays the Distributed one, which sees the whole cluster as one node would.
    const source = /\bFROM\s+(\w+)\b/gi;
    let local = select;
    for (const f of select.matchAll(source)) {
      if (known.has(f[1] as string)) {
        local = select.slice(0, f.index) + select.slice(f.index).replace(f[0], `${f[0]}${LOCAL_SUFFIX}`);
        break;
      }
    }
    if (local === select) throw new Error(`the view ${view} reads no table created before it`);
    return [`CREATE MATERIALIZED VIEW IF NOT EXISTS ${view} ${on} TO ${target}${LOCAL_SUFFIX} AS ${local}`];
  }
  m = CREATE_VIEW.exec(statement);
  // A plain (or parameterized) view reads the Distributed tables: the whole cluster, as on one node.
  if (m) return [`CREATE VIEW IF NOT EXISTS ${m[1]} ${on} AS ${m[2]}`];
  m = REPLACE_VIEW.exec(statement);
  // A later migration's new definition of such a view (064_tj_call_hours.sql), the same on every node.
  if (m) return [`CREATE OR REPLACE VIEW ${m[1]} ${on} AS ${m[2]}`];
  m = ALTER_TABLE.exec(statement);
  if (m) return alterTable(m[1] as string, m[2] as string, o, known);
  m = INSERT_SELECT.exec(statement);
  // A rollup's backfill from the rows already stored (guarded by the rollup being empty, so a repeat adds nothing)
  // runs once, unchanged, on the node perfpipe talks to: through the Distributed names it reads the whole cluster
  // and writes each row to its shard. ClickHouse takes no ON CLUSTER on an INSERT (docs/deploy.md §3).
  if (m) {
    if (!known.has(m[1] as string)) throw new Error(`the backfill's target ${m[1]} is no table created before it`);
    return [statement];
  }
  throw new Error('a statement of a kind the cluster DDL does not know; teach ingest/store/cluster-ddl.ts its cluster form');
}

function createTable(name: string, statement: string, open: number, o: ClusterOptions, known: Known): string[] {
  const close = matchingParen(statement, open);
  const columns = statement.slice(open, close + 1);
  const tail = statement.slice(close + 1).trim();
  const engine = /^ENGINE\s*=\s*(\w*MergeTree)\s*(\()?/i.exec(tail);
  if (!engine) throw new Error(`table ${name}: only MergeTree-family engines have a cluster form here`);
  let args = '';
  let rest = tail.slice(engine[0].length);
  if (engine[2]) {
    const end = matchingParen(tail, engine[0].length - 1);
    args = tail.slice(engine[0].length, end).trim();
    rest = tail.slice(end + 1);
  }
  const family = engine[1] as string;
  if (/^Replicated/i.test(family)) throw new Error(`table ${name} is already replicated`);
  const engineSql = o.replicated
    ? `Replicated${family}(${[REPLICA_PATH, args].filter((a) => a !== '').join(', ')})`
    : `${family}${args === '' ? '' : `(${args})`}`;
  const local = `${name}${LOCAL_SUFFIX}`;
  const shardingKey = shardingKeyOf(name, columns, family, rest);
  known.set(name, { shardingKey });
  return [
    `CREATE TABLE IF NOT EXISTS ${local} ON CLUSTER ${o.cluster}\n${columns}\nENGINE = ${engineSql}\n${(o.replicated ? replicatedSettings(rest) : rest).trim()}`,
    `CREATE TABLE IF NOT EXISTS ${name} ON CLUSTER ${o.cluster} AS ${local}\nENGINE = Distributed(${o.cluster}, currentDatabase(), ${local}, ${shardingKey})`,
  ];
}

/**
 * Where a row goes, the same for every replay of a segment (a replay split otherwise would miss the shards'
 * deduplication, docs/deploy.md §3): the file a row came from keeps a segment whole on one shard; a table that
 * replaces rows by key (runs, key_operations) keeps every version of a key on one shard, so FINAL sees them all.
 */
function shardingKeyOf(name: string, columns: string, family: string, rest: string): string {
  if (/^MergeTree$/i.test(family) && /^\s*file_key\s/m.test(columns.slice(1))) return 'cityHash64(file_key)';
  const order = /\bORDER\s+BY\s+(\([^)]*\)|\w+)/i.exec(rest);
  if (!order) throw new Error(`table ${name} has no ORDER BY to shard by`);
  const key = (order[1] as string).replace(/^\(|\)$/g, '');
  return `cityHash64(${key})`;
}

/**
 * A replicated table deduplicates by its Keeper log, `replicated_deduplication_window` inserts per partition; the
 * single-node window setting does nothing there. The same number carries over, and the log keeps them for a week
 * instead of ClickHouse's hour (`replicated_deduplication_window_seconds`, 3600 in 26.x): a replay comes when a sink
 * takes a partition over again, which after an outage of every sink can be hours later (docs/deploy.md §3).
 */
export const REPLICATED_DEDUP_SECONDS = 604_800;

function replicatedSettings(sql: string): string {
  return sql.replace(/\bnon_replicated_deduplication_window\s*=\s*(\d+)/g,
    `replicated_deduplication_window = $1, replicated_deduplication_window_seconds = ${REPLICATED_DEDUP_SECONDS}`);
}

/** What an ALTER changes of the table's shape (both tables) and what only of its storage (the local one). */
function alterTable(name: string, commands: string, o: ClusterOptions, known: Known): string[] {
  if (!known.has(name)) throw new Error(`ALTER of ${name}, no table created before it`);
  const local: string[] = [];
  const shape: string[] = [];
  for (const command of splitTopLevel(commands)) {
    const c = command.trim();
    const codecOnly = /^MODIFY\s+COLUMN\s+(IF\s+EXISTS\s+)?\w+\s+CODEC\s*\(/i.test(c);
    if (/^(ADD|DROP|RENAME|COMMENT)\s+COLUMN\b/i.test(c) || (/^MODIFY\s+COLUMN\b/i.test(c) && !codecOnly)) {
      local.push(c);
      // A Distributed table stores nothing: its columns carry no codec.
      shape.push(c.replace(/\s+CODEC\s*\([^()]*(\([^()]*\)[^()]*)*\)/gi, ''));
    } else {
      local.push(o.replicated ? replicatedSettings(c) : c);
    }
  }
  const out = [`ALTER TABLE ${name}${LOCAL_SUFFIX} ON CLUSTER ${o.cluster}\n    ${local.join(',\n    ')}`];
  if (shape.length > 0) out.push(`ALTER TABLE ${name} ON CLUSTER ${o.cluster}\n    ${shape.join(',\n    ')}`);
  return out;
}

/** The index of the `)` that closes the `(` at `open`, skipping quoted text. */
export function matchingParen(sql: string, open: number): number {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      i = closingQuote(sql, i);
    } else if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  throw new Error('unbalanced parentheses');
}

function closingQuote(sql: string, at: number): number {
  const q = sql[at];
  for (let i = at + 1; i < sql.length; i++) {
    if (sql[i] === '\\') i++;
    else if (sql[i] === q) return i;
  }
  throw new Error('unterminated quote');
}

/** Splits at commas outside parentheses and quotes: the commands of one ALTER. */
export function splitTopLevel(sql: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (ch === "'" || ch === '"' || ch === '`') i = closingQuote(sql, i);
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(sql.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(sql.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}
