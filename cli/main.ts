// The `perfpipe` command: dispatches to one module per subcommand and turns failures into one clear
// line and an exit code (2 for unusable arguments or files, 1 for anything else).
//
// Each subcommand's module is imported when that subcommand runs: importing all of them (the store, Kafka, pino)
// took about 0.7 s before any work, a third of a `parse tj` run over 200 MB.
import type { Logger } from 'pino';
import { PerfpipeError, ConfigError } from '../ingest/errors/errors.js';

const HELP = `perfpipe — 1C technological journal, APDEX exports, PostgreSQL and atop logs into ClickHouse

  perfpipe demo                      simulate a short load test live, ingest it, print the reports
  perfpipe simulate --out DIR        write a load test's TJ, PostgreSQL log, atop and APDEX export,
                                     with expected.json (--users N --duration D --rate N --seed S --hosts N)
  perfpipe parse tj FILE…            events as NDJSON on stdout
  perfpipe parse pg FILE…            PostgreSQL log entries (and the lock waits they close) as NDJSON
  perfpipe ingest --tj DIR           backfill a TJ location into the store
  perfpipe ingest --pg DIR           backfill a PostgreSQL log directory (--pg-prefix, --pg-format)
  perfpipe ingest --apdex DIR        backfill a 1C performance-evaluation (APDEX) export directory
  perfpipe ingest --atop FILE        backfill atop -P text output (--atop-raw DIR: raw atop_YYYYMMDD logs)
  perfpipe run --config FILE         tail and store continuously (daemon); --atop-spawn SECONDS runs atop
  perfpipe sql "SELECT …"            ad-hoc SQL on the store
  perfpipe migrate --cluster NAME    print (--print) or apply the DDL of a sharded cluster (--replicated)
  perfpipe runs start NAME | stop | list   named load-test runs; reports take --run NAME
  perfpipe report apdex|locks|pg-locks   APDEX per key operation; lock timeouts, deadlocks, waits
  perfpipe report run-compare A B    two runs side by side
  perfpipe report runs               every run, oldest first: APDEX, worst operation, lock trouble
  perfpipe report all --html FILE    one self-contained HTML page with every chart
                                     (--run NAME | --from TIME --to TIME, --format table|json|csv)
  perfpipe agent --kafka BROKERS     tail sources into Kafka (distributed shape, no ClickHouse)
  perfpipe sink --kafka BROKERS      Kafka consumer group → ClickHouse (distributed shape)

Store: the embedded ClickHouse in ./perfpipe-data (--data DIR), or a server (--clickhouse URL).
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const logger = async (level?: string): Promise<Logger> => (await import('../ingest/observe/logger.js')).createLogger(level);
  try {
    switch (command) {
      case 'parse': return await (await import('./commands/parse.js')).parseCommand(rest);
      case 'ingest': return await (await import('./commands/ingest.js')).ingestCommand(rest, await logger());
      case 'run': return await (await import('./commands/run.js')).runCommand(rest, await logger());
      case 'sql': return await (await import('./commands/sql.js')).sqlCommand(rest);
      case 'migrate': return await (await import('./commands/migrate.js')).migrateCommand(rest);
      case 'runs': return await (await import('./commands/runs.js')).runsCommand(rest);
      case 'report': return await (await import('./commands/report.js')).reportCommand(rest);
      case 'demo': return await (await import('./commands/demo.js')).demoCommand(rest, await logger(process.env.PERFPIPE_LOG_LEVEL ?? 'warn'));
      case 'agent': return await (await import('./commands/agent.js')).agentCommand(rest, await logger());
      case 'sink': return await (await import('./commands/sink.js')).sinkCommand(rest, await logger());
      case 'simulate': return await (await import('./commands/simulate.js')).simulateCommand(rest);
      case undefined: case 'help': case '--help': case '-h':
        process.stdout.write(HELP);
        return 0;
      default:
        throw new ConfigError(`unknown command ${JSON.stringify(command)}\n\n${HELP}`);
    }
  } catch (error) {
    if (error instanceof PerfpipeError) {
      process.stderr.write(`perfpipe: ${error.message}\n`);
      return error instanceof ConfigError ? 2 : 1;
    }
    process.stderr.write(`perfpipe: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
