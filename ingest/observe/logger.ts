// pino to stderr: JSON lines for machines, pretty lines on a terminal. Secrets are redacted by path.
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export const REDACT_PATHS = ['password', '*.password', 'config.clickhouse_password', 'sasl.password', 'token', '*.token', 'headers.authorization'];

export function createLogger(level = process.env.PERFPIPE_LOG_LEVEL ?? 'info'): Logger {
  const options = { level, base: undefined, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  if (process.stderr.isTTY) {
    return pino(options, pretty({ destination: 2, colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', sync: true }));
  }
  return pino(options, pino.destination({ dest: 2, sync: true }));
}
