import test from 'ava';
import { parseConfig } from './config.js';

test('a serve: section takes the documented shape and defaults', (t) => {
  const c = parseConfig({ serve: { users: [
    { name: 'analyst', password_env: 'PERFPIPE_ANALYST_PASSWORD' },
    { name: 'writer', password_file: '/etc/perfpipe/writer.pass', readonly: false },
  ] } });
  t.like(c.serve, { listen: '127.0.0.1:8123', limits: { max_execution_time: 300, max_result_rows: 0, max_result_bytes: 0, max_concurrent_queries: 8, queue_max_wait_ms: 10_000, max_query_size: 262_144, max_insert_bytes: 1024 ** 3 } });
  t.like(c.serve?.users[0], { name: 'analyst', readonly: true });
  t.like(c.serve?.users[1], { name: 'writer', readonly: false });
  t.is(parseConfig({}).serve, null, 'not served unless configured');
});

test('a user without a password, with two, or with one in the config text is refused with its path', (t) => {
  const error = t.throws(() => parseConfig({ serve: { users: [
    { name: 'a' },
    { name: 'b', password_env: 'X', no_password: true },
    { name: 'c', password: 'secret' },
    { name: 'a', no_password: true },
  ] } }, 'p.yaml'));
  t.is(error?.message, [
    'p.yaml is not valid:',
    '  serve.users[0]: has no password; expected exactly one of password_env, password_file or no_password: true (passwords never go in the config text)',
    '  serve.users[1]: has more than one password; expected exactly one of password_env, password_file or no_password: true (passwords never go in the config text)',
    '  serve.users[2]: unknown key "password"',
    '  serve.users[2]: has no password; expected exactly one of password_env, password_file or no_password: true (passwords never go in the config text)',
    '  serve.users[3].name: "a" is listed twice',
  ].join('\n'));
  t.is(t.throws(() => parseConfig({ serve: { users: [] } }, 'p.yaml'))?.message, 'p.yaml is not valid:\n  serve.users: lists no user; expected at least one, e.g. { name: analyst, password_env: PERFPIPE_ANALYST_PASSWORD }');
});
