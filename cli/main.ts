// The `perfpipe` command: dispatches to one module per subcommand and turns failures into one clear
// line and an exit code (2 for unusable arguments or files, 1 for anything else).
//
// Each subcommand's module is imported when that subcommand runs: importing all of them (the store, Kafka, pino)
// took about 0.7 s before any work, a third of a `parse tj` run over 200 MB.
//
// One table holds every command with its lines of `perfpipe --help`, so the help is written from what the CLI
// runs (cli/main.test.ts checks it also names every report and parse format the commands take).
import type { Logger } from 'pino';
import { PerfpipeError, ConfigError } from '../ingest/errors/errors.js';

type LoggerAt = (level?: string) => Promise<Logger>;

interface Command {
  name: string;
  /** Lines of `perfpipe --help`: what to type, what it does (a continuation line has an empty first part). */
  help: ReadonlyArray<readonly [usage: string, what: string]>;
  run(args: string[], logger: LoggerAt): Promise<number>;
}

export const COMMANDS: readonly Command[] = [
  {
    name: 'demo', help: [['perfpipe demo', 'simulate a short load test live, ingest it, print the reports']],
    run: async (a, logger) => (await import('./commands/demo.js')).demoCommand(a, await logger(process.env.PERFPIPE_LOG_LEVEL ?? 'warn')),
  },
  {
    name: 'simulate',
    help: [['perfpipe simulate --out DIR', 'write a load test\'s TJ, PostgreSQL log, atop and APDEX export,'], ['', 'with expected.json (--users N --duration D --rate N --seed S --hosts N)']],
    run: async (a) => (await import('./commands/simulate.js')).simulateCommand(a),
  },
  {
    name: 'parse',
    help: [
      ['perfpipe parse tj FILE…', 'events as NDJSON on stdout'],
      ['perfpipe parse pg FILE…', 'PostgreSQL log entries (and the lock waits they close) as NDJSON'],
      ['perfpipe parse atop FILE…', 'atop -P output as NDJSON, one record per data line'],
    ],
    run: async (a) => (await import('./commands/parse.js')).parseCommand(a),
  },
  {
    name: 'ingest',
    help: [
      ['perfpipe ingest --tj DIR', 'backfill a TJ location into the store'],
      ['perfpipe ingest --pg DIR', 'backfill a PostgreSQL log directory (prefix and format found,'],
      ['', 'or --pg-prefix, --pg-format)'],
      ['perfpipe ingest --apdex DIR', 'backfill a 1C performance-evaluation (APDEX) export directory'],
      ['perfpipe ingest --atop FILE', 'backfill atop -P text output (--atop-raw DIR: raw atop_YYYYMMDD logs)'],
    ],
    run: async (a, logger) => (await import('./commands/ingest.js')).ingestCommand(a, await logger()),
  },
  {
    name: 'run', help: [['perfpipe run --config FILE', 'tail and store continuously (daemon); --atop-spawn SECONDS runs atop']],
    run: async (a, logger) => (await import('./commands/run.js')).runCommand(a, await logger()),
  },
  {
    name: 'sql', help: [['perfpipe sql "SELECT …"', 'ad-hoc SQL on the store']],
    run: async (a) => (await import('./commands/sql.js')).sqlCommand(a),
  },
  {
    name: 'migrate', help: [['perfpipe migrate --cluster NAME', 'print (--print) or apply the DDL of a sharded cluster (--replicated)']],
    run: async (a) => (await import('./commands/migrate.js')).migrateCommand(a),
  },
  {
    name: 'runs', help: [['perfpipe runs start NAME | stop | list', 'named load-test runs; reports take --run NAME']],
    run: async (a) => (await import('./commands/runs.js')).runsCommand(a),
  },
  {
    name: 'report',
    help: [
      ['perfpipe report apdex|locks|pg-locks|pg-waits', 'APDEX per key operation; lock timeouts, deadlocks, waits;'],
      ['', 'PostgreSQL lock waits; PostgreSQL wait events'],
      ['perfpipe report sql|errors', 'statements by total time with the contexts that ran them;'],
      ['', '1C exceptions and PostgreSQL errors, grouped'],
      ['perfpipe report why [--operation NAME]', 'where each operation\'s call time went: DB, lock waits, CPU,'],
      ['', 'thread wait, other; its top statements, slowest calls, waits'],
      ['perfpipe report run-compare A B', 'two runs side by side, with what changed between them'],
      ['perfpipe report runs', 'every run, oldest first: APDEX, worst operation, lock trouble'],
      ['perfpipe report all --html FILE', 'one self-contained HTML page with every chart'],
      ['', '(--run NAME | --from TIME --to TIME, --format table|json|csv)'],
    ],
    run: async (a) => (await import('./commands/report.js')).reportCommand(a),
  },
  {
    name: 'agent', help: [['perfpipe agent --kafka BROKERS', 'tail sources into Kafka (distributed shape, no ClickHouse)']],
    run: async (a, logger) => (await import('./commands/agent.js')).agentCommand(a, await logger()),
  },
  {
    name: 'sink', help: [['perfpipe sink --kafka BROKERS', 'Kafka consumer group → ClickHouse (distributed shape)']],
    run: async (a, logger) => (await import('./commands/sink.js')).sinkCommand(a, await logger()),
  },
  {
    name: 'serve',
    help: [['perfpipe serve --data DIR', 'ClickHouse\'s HTTP interface on a store for analysts\' tools'], ['', '(users in the config\'s serve: section, docs/clickhouse-http.md)']],
    run: async (a, logger) => (await import('./commands/serve.js')).serveCommand(a, await logger()),
  },
];

/** Column of the descriptions in the help; a longer usage puts its description on the next line. */
const HELP_COLUMN = 37;

/** `perfpipe --help`, written from COMMANDS. */
export function helpText(): string {
  const line = ([usage, what]: readonly [string, string]): string => (usage.length + 3 > HELP_COLUMN
    ? `  ${usage}\n${' '.repeat(HELP_COLUMN)}${what}`
    : `  ${usage.padEnd(HELP_COLUMN - 2)}${what}`);
  return `perfpipe — 1C technological journal, APDEX exports, PostgreSQL and atop logs into ClickHouse\n\n${
    COMMANDS.flatMap((c) => c.help).map(line).join('\n')
  }\n\nStore: the embedded ClickHouse in ./perfpipe-data (--data DIR), or a server (--clickhouse URL).\n`;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const logger: LoggerAt = async (level) => (await import('../ingest/observe/logger.js')).createLogger(level);
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      process.stdout.write(helpText());
      return 0;
    }
    const found = COMMANDS.find((c) => c.name === command);
    if (found === undefined) throw new ConfigError(`unknown command ${JSON.stringify(command)}\n\n${helpText()}`);
    return await found.run(rest, logger);
  } catch (error) {
    if (error instanceof PerfpipeError) {
      process.stderr.write(`perfpipe: ${error.message}\n`);
      return error instanceof ConfigError ? 2 : 1;
    }
    // ClickHouse's own refusal (a wrong password, an unknown table): its words on one line, no stack.
    const ch = error as { code?: unknown; type?: unknown; message?: string };
    if (typeof ch.type === 'string' && /^[A-Z_]+$/.test(ch.type) && ch.code !== undefined) {
      process.stderr.write(`perfpipe: ClickHouse answered: ${String(ch.message).trim()} (code ${String(ch.code)}, ${ch.type})\n`);
      return 1;
    }
    process.stderr.write(`perfpipe: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
