import test from 'ava';
import { configForRole } from './role-flags.js';

test('an agent takes --kafka as a comma-separated broker list and listens on 9651 by default', (t) => {
  const { config } = configForRole(['--tj', '/tmp/tj', '--tz', 'UTC', '--kafka', '127.0.0.1:9092, 127.0.0.1:9094'], 'agent', 'u');
  t.deepEqual(config.bus.type === 'kafka' ? config.bus.brokers : [], ['127.0.0.1:9092', '127.0.0.1:9094']);
  t.is(config.listen, '127.0.0.1:9651');
  t.is(config.sources[0]?.type === 'tj' ? config.sources[0].tz : undefined, 'UTC');
});

test('a sink takes --group and listens on 9652 by default; --listen wins', (t) => {
  const { config } = configForRole(['--kafka', '127.0.0.1:9092', '--group', 'g1'], 'sink', 'u');
  t.is(config.bus.type === 'kafka' ? config.bus.group_id : '', 'g1');
  t.is(config.listen, '127.0.0.1:9652');
  t.is(configForRole(['--kafka', '127.0.0.1:9092', '--listen', '127.0.0.1:1'], 'sink', 'u').config.listen, '127.0.0.1:1');
});

test('without a Kafka bus or without sources the roles refuse with what to give', (t) => {
  t.throws(() => configForRole(['--tj', '/tmp/tj'], 'agent', 'USAGE'), {
    message: 'agent: no Kafka bus: give --kafka BROKERS or set bus.type: kafka in the config file\nusage: USAGE',
  });
  t.throws(() => configForRole(['--kafka', '127.0.0.1:9092'], 'agent', 'USAGE'), {
    message: 'agent: no source: give --tj DIR or a config file with sources\nusage: USAGE',
  });
  t.throws(() => configForRole(['--kafka', '[::1]:9092'], 'sink', 'USAGE'), {
    message: 'flags is not valid:\n  bus.brokers[0]: expected host:port with an IPv4 address or a host name, e.g. "127.0.0.1:9092"',
  });
});
