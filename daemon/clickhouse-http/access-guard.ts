// What no user of the HTTP interface may do, because the embedded engine would do it with the daemon's own rights.
// The engine is clickhouse-local: it has no users and no grants, and its file(), url(), remote(), executable() and
// the table engines and dictionary sources behind them read and write whatever the daemon's process can (its
// checkpoints, a password file, another host). A ClickHouse server refuses them unless a grant allows it
// (READ ON FILE, URL, REMOTE…); here they are refused for every user (docs/clickhouse-http.md §5). The lists of
// table functions and engines come from the engine itself, so a newer engine's additions are refused until named here.
import { chError } from './errors.js';
import type { Statement } from './statement.js';

/** Table functions that read only the store or generate data. */
const ALLOWED_TABLE_FUNCTIONS = [
  'numbers', 'numbers_mt', 'zeros', 'zeros_mt', 'generateRandom', 'generateSeries', 'generate_series', 'values', 'null',
  'view', 'viewExplain', 'viewIfPermitted', 'merge', 'format', 'dictionary', 'loop', 'primes', 'input', 'SQLStandardValues',
  'mergeTreeIndex', 'mergeTreeProjection', 'mergeTreeAnalyzeIndexes', 'mergeTreeAnalyzeIndexesUUID', 'mergeTreeTextIndex',
  'fuzzJSON', 'fuzzQuery', 'timeSeriesData', 'timeSeriesMetrics', 'timeSeriesSamples', 'timeSeriesTags', 'timeSeriesSelector',
];

/** Table engines that keep their data in the store's own directory. */
const ALLOWED_ENGINE = /MergeTree$|^(Alias|Buffer|Dictionary|EmbeddedRocksDB|GenerateRandom|Join|Log|Loop|MaterializedView|Memory|Merge|Null|Set|StripeLog|TimeSeries|TinyLog|View|WindowView|FuzzJSON|FuzzQuery|KeeperMap)$/;

/** Dictionary sources (`SOURCE(FILE(…))`) that read outside the store; the engine lists them nowhere. */
const DICTIONARY_SOURCES = ['file', 'http', 'executable', 'executable_pool', 'mysql', 'clickhouse', 'postgresql', 'mongodb', 'redis', 'odbc', 'cassandra', 'yamlregexptree', 'hdfs'];

/** Statements that act on the engine itself rather than on data. */
const DENIED_KINDS = new Set(['SYSTEM', 'BACKUP', 'RESTORE', 'ATTACH', 'DETACH']);

export interface AccessGuard {
  /** Throws ClickHouse's error for a statement this interface refuses; `user` names who asked. */
  check(statement: Statement, user: string): void;
}

export function createAccessGuard(engineTableFunctions: readonly string[], engineTableEngines: readonly string[]): AccessGuard {
  const allowedFunctions = new Set(ALLOWED_TABLE_FUNCTIONS.map((n) => n.toLowerCase()));
  const denied = new Set([
    ...engineTableFunctions.filter((n) => !allowedFunctions.has(n.toLowerCase())),
    ...engineTableEngines.filter((n) => !ALLOWED_ENGINE.test(n)),
    ...DICTIONARY_SOURCES,
  ].map((n) => n.toLowerCase()));
  // An engine allowed under one case (Log) is not refused under another (log(), the logarithm).
  for (const n of [...allowedFunctions, ...engineTableEngines.filter((e) => ALLOWED_ENGINE.test(e)).map((e) => e.toLowerCase())]) denied.delete(n);
  return {
    check(statement, user) {
      if (statement.multiple) throw chError('SYNTAX_ERROR', 'Syntax error (Multi-statements are not allowed): one statement per request');
      if (statement.touchesFiles) throw chError('INTO_OUTFILE_NOT_ALLOWED', 'INTO OUTFILE and FROM INFILE are not allowed over HTTP: the file would be the server\'s');
      if (DENIED_KINDS.has(statement.kind)) throw chError('ACCESS_DENIED', `${user}: Not enough privileges. ${statement.kind} statements act on the server itself, which this endpoint does not allow`);
      const reach = statement.calls.find((c) => denied.has(c));
      if (reach !== undefined) {
        throw chError('ACCESS_DENIED', `${user}: Not enough privileges. ${reach}() reaches beyond the store (files, URLs, other servers or programs), which this endpoint does not allow`);
      }
    },
  };
}
