// ClickHouse's HTTP interface of `perfpipe serve`, spoken as curl speaks it: where the query may come from, the
// headers clients read, parameters and settings, errors with ClickHouse's codes and HTTP statuses, users and their
// rights, and the guard on what reaches beyond the store (docs/clickhouse-http.md).
import test from 'ava';
import { ANALYST, WRITER, ask, startServe, type Served } from './support/clickhouse-serve.js';

let served: Served;
test.before(async () => {
  served = await startServe();
  const setup = [
    'CREATE TABLE IF NOT EXISTS http_t (a UInt32, s String) ENGINE = MergeTree ORDER BY a SETTINGS non_replicated_deduplication_window = 100',
    'CREATE DATABASE IF NOT EXISTS other',
    'CREATE TABLE IF NOT EXISTS other.o (x UInt8) ENGINE = Memory',
  ];
  for (const sql of setup) {
    const r = await ask(served.url, { user: WRITER, body: sql });
    if (r.status !== 200) throw new Error(`${sql}: ${r.text}`);
  }
});
test.after.always(() => served?.stop());

test.serial('GET / and /ping answer Ok.', async (t) => {
  for (const path of ['/', '/ping']) {
    const r = await ask(`${served.url}${path}`, { user: null });
    t.is(r.status, 200);
    t.is(r.text, 'Ok.\n');
  }
});

test.serial('a query comes in the URL, in the body, or split between the two', async (t) => {
  t.is((await ask(served.url, { query: 'SELECT 1 + 1' })).text, '2\n');
  t.is((await ask(served.url, { body: 'SELECT 2 + 2' })).text, '4\n');
  t.is((await ask(served.url, { query: 'SELECT number', body: 'FROM numbers(3) WHERE number > 0' })).text, '1\n2\n');
});

test.serial('the headers clients read: query id, format, time zone, summary, display name', async (t) => {
  const r = await ask(served.url, { query: 'SELECT number FROM numbers(5)', params: { query_id: 'my-query-1', default_format: 'JSONEachRow' } });
  t.is(r.status, 200);
  t.is(r.headers.get('x-clickhouse-query-id'), 'my-query-1');
  t.is(r.headers.get('x-clickhouse-format'), 'JSONEachRow');
  t.is(r.headers.get('content-type'), 'application/json; charset=UTF-8');
  t.truthy(r.headers.get('x-clickhouse-timezone'));
  t.truthy(r.headers.get('x-clickhouse-server-display-name'));
  t.regex(r.headers.get('x-clickhouse-exception-tag') ?? '', /^[a-z]{16}$/);
  const summary = JSON.parse(r.headers.get('x-clickhouse-summary') ?? '{}') as Record<string, string>;
  t.is(summary.result_rows, '5');
  t.regex(summary.elapsed_ns ?? '', /^\d+$/);
  t.is(r.text, '{"number":0}\n{"number":1}\n{"number":2}\n{"number":3}\n{"number":4}\n');
  const generated = await ask(served.url, { query: 'SELECT 1' });
  t.regex(generated.headers.get('x-clickhouse-query-id') ?? '', /^[0-9a-f-]{36}$/);
});

test.serial('default_format and database come as parameters or as X-ClickHouse-* headers; a FORMAT clause wins', async (t) => {
  t.is((await ask(served.url, { query: 'SELECT name FROM system.tables WHERE database = currentDatabase()', params: { database: 'other' } })).text, 'o\n');
  t.is((await ask(served.url, { query: 'SELECT currentDatabase()', headers: { 'X-ClickHouse-Database': 'other' } })).text, 'other\n');
  t.is((await ask(served.url, { query: 'SELECT 1 AS x', headers: { 'X-ClickHouse-Format': 'CSVWithNames' } })).text, '"x"\n1\n');
  const clause = await ask(served.url, { query: 'SELECT 1 AS x FORMAT JSONCompactEachRow', params: { default_format: 'CSV' } });
  t.is(clause.text, '[1]\n');
  t.is(clause.headers.get('x-clickhouse-format'), 'JSONCompactEachRow');
});

test.serial('param_<name> binds {name:Type}, in ClickHouse\'s escaped text form', async (t) => {
  const r = await ask(served.url, {
    body: 'SELECT {n:UInt32} * 2, {s:String}, length({s:String}), {a:Array(String)}, {z:Nullable(UInt8)} FORMAT TSV',
    params: { param_n: '21', param_s: 'a\\tb', param_a: "['x','y']", param_z: '\\N' },
  });
  t.is(r.text, "42\ta\\tb\t3\t['x','y']\t\\N\n");
});

test.serial('a parameter of hundreds of KiB in the URL binds as on a server (up to its 1 MiB http_max_uri_size)', async (t) => {
  // The lock resolver sends its batched keys this way through @clickhouse/client; Node's default 16 KiB refused them.
  const keys = Array.from({ length: 20_000 }, (_, i) => `'k${i}'`).join(',');
  t.true(keys.length > 100_000);
  const r = await ask(served.url, { body: 'SELECT length({keys:Array(String)}) FORMAT TSV', params: { param_keys: `[${keys}]` } });
  t.is(r.status, 200, r.text);
  t.is(r.text, '20000\n');
});

test.serial('settings are URL parameters handed to the engine; an unknown one is refused as a server refuses it', async (t) => {
  t.is((await ask(served.url, { query: "SELECT getSetting('max_threads')", params: { max_threads: '1' } })).text, '1\n');
  const r = await ask(served.url, { query: 'SELECT 1', params: { no_such_setting: '1' } });
  t.is(r.status, 404);
  t.is(r.headers.get('x-clickhouse-exception-code'), '115');
  t.is(r.text, "Code: 115. DB::Exception: Unknown setting 'no_such_setting'. (UNKNOWN_SETTING)\n");
  const format = await ask(served.url, { query: 'SELECT 1', params: { default_format: 'NoSuchFormat' } });
  t.is(format.status, 404);
  t.is(format.headers.get('x-clickhouse-exception-code'), '73');
});

test.serial('errors carry ClickHouse\'s code, its HTTP status and the engine\'s message', async (t) => {
  const unknown = await ask(served.url, { query: 'SELECT * FROM no_such_table' });
  t.is(unknown.status, 404);
  t.is(unknown.headers.get('x-clickhouse-exception-code'), '60');
  t.regex(unknown.text, /^Code: 60\. DB::Exception: .*no_such_table.*\(UNKNOWN_TABLE\)\n$/);
  const syntax = await ask(served.url, { query: 'SELEC 1' });
  t.is(syntax.status, 400);
  t.is(syntax.headers.get('x-clickhouse-exception-code'), '62');
  const thrown = await ask(served.url, { query: 'SELECT throwIf(1)' });
  t.is(thrown.status, 500);
  t.is(thrown.headers.get('x-clickhouse-exception-code'), '395');
});

test.serial('credentials: basic auth, X-ClickHouse-User/Key, user/password parameters; none or a wrong one is refused', async (t) => {
  t.is((await ask(served.url, { query: 'SELECT currentUser() != \'\'', user: null, headers: { 'X-ClickHouse-User': ANALYST.user, 'X-ClickHouse-Key': ANALYST.password } })).status, 200);
  t.is((await ask(served.url, { query: 'SELECT 1', user: null, params: { user: ANALYST.user, password: ANALYST.password } })).status, 200);
  const none = await ask(served.url, { query: 'SELECT 1', user: null });
  t.is(none.status, 401);
  t.is(none.headers.get('www-authenticate'), 'Basic realm="ClickHouse server HTTP API"');
  t.is(none.text, 'Code: 194. DB::Exception: default: Authentication failed: password is incorrect, or there is no user with such name. (REQUIRED_PASSWORD)\n');
  const wrong = await ask(served.url, { query: 'SELECT 1', user: { user: 'analyst', password: 'guess' } });
  t.is(wrong.status, 403);
  t.is(wrong.text, 'Code: 516. DB::Exception: analyst: Authentication failed: password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED)\n');
  const nobody = await ask(served.url, { query: 'SELECT 1', user: { user: 'nobody', password: 'guess' } });
  t.is(nobody.status, 403);
  const mixed = await ask(served.url, { query: 'SELECT 1', params: { user: 'analyst', password: ANALYST.password } });
  t.is(mixed.status, 403, 'basic auth and parameters together');
});

test.serial('the read-only user reads and sets settings, and gets READONLY for a write, DDL or a change of readonly', async (t) => {
  for (const body of ["INSERT INTO http_t VALUES (1, 'x')", 'CREATE TABLE x (a UInt8) ENGINE = Memory', 'DROP TABLE http_t', 'SET readonly = 0']) {
    const r = await ask(served.url, { body });
    t.is(r.headers.get('x-clickhouse-exception-code'), '164', body);
    t.regex(r.text, /^Code: 164\. DB::Exception: (analyst: )?Cannot (execute query|modify 'readonly' setting) in readonly mode/, body);
  }
  t.is((await ask(served.url, { query: "SELECT getSetting('readonly')", params: { enable_http_compression: '1', max_block_size: '1000' } })).text, '2\n');
});

test.serial('a read-only user\'s query threads run at nice 19 (os_thread_priority), which a client may raise but not lower; the writer\'s at 0', async (t) => {
  const nice = "SELECT getSetting('os_thread_priority')";
  t.is((await ask(served.url, { query: nice })).text, '19\n');
  t.is((await ask(served.url, { user: WRITER, body: nice })).text, '0\n');
  const lower = await ask(served.url, { query: nice, params: { os_thread_priority: '0' } });
  t.is(lower.headers.get('x-clickhouse-exception-code'), '452');
  t.regex(lower.text, /Setting os_thread_priority shouldn't be less than 19/);
});

test.serial('the writer inserts and creates over POST; a GET stays read-only for everyone', async (t) => {
  t.is((await ask(served.url, { user: WRITER, query: 'INSERT INTO http_t FORMAT CSV', body: '1,a\n2,b\n' })).status, 200);
  t.is((await ask(served.url, { user: WRITER, body: "INSERT INTO http_t VALUES (3, 'c')" })).status, 200);
  t.is((await ask(served.url, { user: WRITER, body: 'INSERT INTO http_t FORMAT TSV\n4\td\n' })).status, 200);
  const get = await ask(served.url, { user: WRITER, query: "INSERT INTO http_t VALUES (9, 'z')" });
  t.is(get.headers.get('x-clickhouse-exception-code'), '164');
  t.regex(get.text, /method GET implies readonly/);
  t.is((await ask(served.url, { query: 'SELECT groupArray(s) FROM (SELECT s FROM http_t ORDER BY a)' })).text, "['a','b','c','d']\n");
});

test.serial('an INSERT\'s own SETTINGS and a deduplication token are kept: the same token twice stores once', async (t) => {
  const insert = (token: string) => ask(served.url, { user: WRITER, query: `INSERT INTO http_t SETTINGS insert_deduplication_token = '${token}' FORMAT CSV`, body: '100,dup\n' });
  const first = await insert('tok-1');
  t.is(first.status, 200, first.text);
  t.is(JSON.parse(first.headers.get('x-clickhouse-summary') ?? '{}').written_rows, '1');
  t.is((await insert('tok-1')).status, 200);
  t.is((await ask(served.url, { query: 'SELECT count() FROM http_t WHERE a = 100' })).text, '1\n');
  t.is((await ask(served.url, { user: WRITER, query: 'INSERT INTO http_t FORMAT CSV', body: '101,x\n', params: { insert_deduplication_token: 'tok-1' } })).status, 200);
  t.is((await ask(served.url, { query: 'SELECT count() FROM http_t WHERE a = 101' })).text, '0\n', 'a token as a URL setting deduplicates too');
});

test.serial('nothing reaches beyond the store: files, URLs, other servers, INTO OUTFILE, SYSTEM, a second statement', async (t) => {
  const refused = [
    ["SELECT * FROM file('/etc/passwd', 'LineAsString')", '497'],
    ["SELECT file('/etc/passwd')", '497'],
    ["SELECT * FROM url('http://127.0.0.1:1/', 'CSV', 'a String')", '497'],
    ["SELECT * FROM remote('127.0.0.1', system.one)", '497'],
    ["SELECT * FROM executable('x.sh', 'TSV', 'a String')", '497'],
    ["SELECT 1 INTO OUTFILE '/tmp/perfpipe-outfile'", '358'],
    ['SYSTEM SHUTDOWN', '497'],
    ['SELECT 1; SELECT 2', '62'],
  ] as const;
  for (const user of [ANALYST, WRITER]) {
    for (const [body, code] of refused) {
      const r = await ask(served.url, { user, body });
      t.is(r.headers.get('x-clickhouse-exception-code'), code, `${user.user}: ${body}`);
    }
  }
  const ddl = await ask(served.url, { user: WRITER, body: "CREATE TABLE f (a String) ENGINE = File(TSV, '/etc/passwd')" });
  t.is(ddl.headers.get('x-clickhouse-exception-code'), '497');
  t.is((await ask(served.url, { body: "SELECT 'file(x)', log(1), format('{}', 'ok') -- file('/etc/passwd')" })).text, 'file(x)\t0\tok\n', 'names inside strings and comments, and log()/format(), are not refused');
});
