// Builds the kafkajs client from the bus config: brokers, TLS, SASL from the environment, and kafkajs's own
// log lines routed to a callback (kafkajs otherwise prints JSON to the console).
import type { LogEntry, SASLOptions } from 'kafkajs';
import { Kafka, logLevel } from './kafkajs.js';
import { BusError } from './bus-error.js';
import { credentialsFromEnv, type KafkaBusConfig } from './kafka-config.js';

export interface KafkaLogLine {
  level: 'error' | 'warn' | 'info' | 'debug';
  namespace: string;
  message: string;
  fields: Record<string, unknown>;
}

export type KafkaLogSink = (line: KafkaLogLine) => void;

const LEVELS: Record<number, KafkaLogLine['level']> = {
  [logLevel.ERROR]: 'error', [logLevel.WARN]: 'warn', [logLevel.INFO]: 'info', [logLevel.DEBUG]: 'debug',
};

// kafkajs puts connection options into some log entries; nothing that could hold a secret leaves here.
const SECRET_FIELDS = new Set(['sasl', 'password', 'ssl', 'authenticationProvider']);

function route(onLog: KafkaLogSink) {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _timestamp, logger: _logger, ...rest } = log;
      const fields = Object.fromEntries(Object.entries(rest).filter(([key]) => !SECRET_FIELDS.has(key)));
      onLog({ level: LEVELS[level] ?? 'info', namespace, message, fields });
    };
}

function sasl(config: KafkaBusConfig, env: NodeJS.ProcessEnv): SASLOptions | undefined {
  if (!config.sasl_mechanism) return undefined;
  const credentials = credentialsFromEnv(env);
  if (!credentials) {
    throw new BusError(
      `kafka bus: sasl_mechanism "${config.sasl_mechanism}" needs PERFPIPE_KAFKA_USERNAME and PERFPIPE_KAFKA_PASSWORD in the environment`,
      { permanent: true },
    );
  }
  return { mechanism: config.sasl_mechanism, ...credentials } as SASLOptions;
}

export function createKafkaClient(config: KafkaBusConfig, options: { onLog?: KafkaLogSink; env?: NodeJS.ProcessEnv }): Kafka {
  const saslOptions = sasl(config, options.env ?? process.env);
  return new Kafka({
    clientId: config.client_id,
    brokers: config.brokers,
    ssl: config.ssl,
    ...(saslOptions ? { sasl: saslOptions } : {}),
    logLevel: options.onLog ? logLevel.INFO : logLevel.NOTHING,
    logCreator: options.onLog ? route(options.onLog) : () => () => {},
  });
}
