// The configured key operations as bound parameters of queries/reports/apdex.sql: one array per setting, index i
// being operations[i]. Parameters, never SQL text, so names and patterns from the config reach the server as data.
import { loadConfigFile } from '../../ingest/config/config.js';
import type { KeyOperationConfig } from '../../ingest/apdex/config.js';

/** A type alias, not an interface: it must fit the reports' plain parameter records. */
export type KeyOperationParams = {
  op_names: string[];
  /** '' = no prefix rule. */
  op_prefixes: string[];
  /** '' = no regex rule. */
  op_regexes: string[];
  /** '' = any infobase. */
  op_infobases: string[];
  op_targets: Array<number | null>;
  op_priorities: Array<number | null>;
  op_min_levels: Array<number | null>;
};

export function keyOperationParams(operations: readonly KeyOperationConfig[]): KeyOperationParams {
  return {
    op_names: operations.map((o) => o.name),
    op_prefixes: operations.map((o) => o.context ?? ''),
    op_regexes: operations.map((o) => o.context_regex ?? ''),
    op_infobases: operations.map((o) => o.infobase ?? ''),
    op_targets: operations.map((o) => o.target_s ?? null),
    op_priorities: operations.map((o) => o.priority ?? null),
    op_min_levels: operations.map((o) => o.min_apdex ?? null),
  };
}

/** Per-report parameters from `report --config FILE`: the key operations of apdex.sql, sql-contexts.sql and the why-*.sql; no file, none. */
export function reportParamsFromConfig(path: string | undefined): Record<string, KeyOperationParams> {
  if (path === undefined) return {};
  const params = keyOperationParams(loadConfigFile(path).apdex.operations);
  return { apdex: params, 'sql-contexts': params, 'why-operations': params, 'why-details': params, 'why-slowest': params, 'why-pg-waits': params, 'why-host': params };
}
