// Faults on ClickHouse's HTTP interface: limits that cancel a query, an error after the first bytes, a client that
// leaves mid-result, a hundred connections at once, malformed HTTP, bodies too large or corrupt, sessions held by
// two clients. Each gets a clear answer, and the endpoint answers the next request (docs/clickhouse-http.md §3, §6).
import test from 'ava';
import { request } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { ANALYST, WRITER, ask, startServe, type Served } from './support/clickhouse-serve.js';

let served: Served;
test.before(async () => {
  served = await startServe({ max_execution_time: 2, max_result_rows: 500_000, max_concurrent_queries: 4, queue_max_wait_ms: 30_000, max_insert_bytes: 1024 * 1024, max_query_size: 8192 });
});
test.after.always(() => served?.stop());

const stillServes = async (t: { is: (a: unknown, b: unknown, m?: string) => void }): Promise<void> => {
  t.is((await ask(served.url, { query: 'SELECT 42' })).text, '42\n', 'the endpoint answers the next request');
};

/** A raw request: the status, the bytes that came, and whether the response ended cleanly. */
function rawGet(url: string, o: { path: string; stopAfterBytes?: number }): Promise<{ status: number; body: Buffer; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const auth = Buffer.from(`${ANALYST.user}:${ANALYST.password}`).toString('base64');
    const req = request(`${url}${o.path}`, { headers: { authorization: `Basic ${auth}` } }, (res) => {
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (d: Buffer) => {
        parts.push(d);
        size += d.length;
        if (o.stopAfterBytes !== undefined && size >= o.stopAfterBytes) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), complete: false });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), complete: res.complete }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), complete: false }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Bytes straight onto a socket; resolves with all the server wrote back before it closed. */
function rawSocket(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let text = '';
    socket.on('data', (d) => { text += d.toString(); });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

test.serial('a query that never ends is cancelled at max_execution_time with TIMEOUT_EXCEEDED (HTTP 408)', async (t) => {
  const started = Date.now();
  const r = await ask(served.url, { query: 'SELECT count() FROM numbers(1e13)' });
  t.is(r.status, 408);
  t.is(r.headers.get('x-clickhouse-exception-code'), '159');
  t.true(Date.now() - started < 30_000);
  await stillServes(t);
});

test.serial('a client may lower a limit but not raise it: SETTING_CONSTRAINT_VIOLATION', async (t) => {
  const raise = await ask(served.url, { query: 'SELECT 1', params: { max_execution_time: '60' } });
  t.is(raise.headers.get('x-clickhouse-exception-code'), '452');
  t.is(raise.text, "Code: 452. DB::Exception: Setting max_execution_time shouldn't be greater than 2. (SETTING_CONSTRAINT_VIOLATION)\n");
  t.is((await ask(served.url, { query: 'SELECT 1', params: { max_result_rows: '0' } })).headers.get('x-clickhouse-exception-code'), '452', '0 would lift the limit');
  t.is((await ask(served.url, { query: "SELECT getSetting('max_execution_time')", params: { max_execution_time: '1' } })).text, '1\n');
});

test.serial('an error after the first bytes comes inside the body between markers, and the response is left broken', async (t) => {
  const r = await rawGet(served.url, { path: `/?query=${encodeURIComponent('SELECT number FROM numbers(2000000)')}` });
  t.is(r.status, 200);
  t.false(r.complete, 'no client may take the cut result for a whole one');
  const text = r.body.toString('latin1');
  const m = /\r\n__exception__\r\n([a-z]{16})\r\n(Code: 396\. DB::Exception: [^\n]*\(TOO_MANY_ROWS_OR_BYTES\)\n)(\d+) \1\r\n__exception__\r\n$/.exec(text);
  t.truthy(m, text.slice(-400));
  t.is(Number(m?.[3]), Buffer.byteLength(m?.[2] ?? ''));
  const waited = await ask(served.url, { query: 'SELECT number FROM numbers(2000000)', params: { wait_end_of_query: '1' } });
  t.is(waited.status, 500, 'with wait_end_of_query=1 the same error gets its status');
  t.is(waited.headers.get('x-clickhouse-exception-code'), '396');
  await stillServes(t);
});

test.serial('a client that leaves in the middle of a result cancels its query; the endpoint goes on', async (t) => {
  const r = await rawGet(served.url, { path: `/?query=${encodeURIComponent('SELECT number, toString(number) FROM numbers(400000)')}&max_result_rows=400000`, stopAfterBytes: 100_000 });
  t.is(r.status, 200);
  for (let i = 0; i < 3; i++) await stillServes(t);
  const whole = await ask(served.url, { query: 'SELECT count() FROM (SELECT number FROM numbers(400000))' });
  t.is(whole.text, '400000\n');
});

test.serial('a hundred connections at once: queries beyond max_concurrent_queries wait for a slot, and all are answered', async (t) => {
  const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => ask(served.url, { query: `SELECT ${i}, count() FROM numbers(100000)` })));
  t.deepEqual(answers.map((a) => a.status), Array(100).fill(200));
  t.deepEqual(answers.map((a) => a.text), Array.from({ length: 100 }, (_, i) => `${i}\t100000\n`));
});

test.serial('malformed HTTP gets a 400 and the connection closes; the endpoint goes on', async (t) => {
  const text = await rawSocket(served.url, 'THIS IS NOT HTTP\r\n\r\n');
  t.regex(text, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.regex(text, /Code: 1000\. DB::Exception: Malformed HTTP request/);
  const noLength = await rawSocket(served.url, `POST /?query=SELECT%201 HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${Buffer.from(`${ANALYST.user}:${ANALYST.password}`).toString('base64')}\r\nConnection: close\r\n\r\n`);
  t.regex(noLength, /^HTTP\/1\.1 411 Length Required\r\n[\s\S]*X-ClickHouse-Exception-Code: 381/i);
  await stillServes(t);
});

test.serial('a body too large is refused with QUERY_IS_TOO_LARGE (HTTP 413): query text and INSERT data alike', async (t) => {
  await ask(served.url, { user: WRITER, body: 'CREATE TABLE IF NOT EXISTS big (s String) ENGINE = MergeTree ORDER BY s' });
  const data = await ask(served.url, { user: WRITER, query: 'INSERT INTO big FORMAT TSV', body: `${'x'.repeat(1000)}\n`.repeat(2000) });
  t.is(data.status, 413);
  t.is(data.headers.get('x-clickhouse-exception-code'), '229');
  t.is((await ask(served.url, { query: 'SELECT count() FROM big' })).text, '0\n', 'nothing of it was stored');
  const text = await ask(served.url, { body: `SELECT '${'y'.repeat(10_000)}'` });
  t.is(text.status, 413);
  await stillServes(t);
});

test.serial('a corrupt compressed body gets CANNOT_DECOMPRESS; an unknown Content-Encoding UNKNOWN_COMPRESSION_METHOD', async (t) => {
  await ask(served.url, { user: WRITER, body: 'CREATE TABLE IF NOT EXISTS gz (s String) ENGINE = MergeTree ORDER BY s' });
  const good = gzipSync(Buffer.from('one\ntwo\n'));
  t.is((await ask(served.url, { user: WRITER, query: 'INSERT INTO gz FORMAT TSV', body: good, headers: { 'content-encoding': 'gzip' } })).status, 200);
  const corrupt = Buffer.from(good);
  corrupt.fill(0x55, 10, 20);
  const bad = await ask(served.url, { user: WRITER, query: 'INSERT INTO gz FORMAT TSV', body: corrupt, headers: { 'content-encoding': 'gzip' } });
  t.is(bad.headers.get('x-clickhouse-exception-code'), '271');
  t.regex(bad.text, /^Code: 271\. DB::Exception: Cannot decompress the request body/);
  const unknown = await ask(served.url, { user: WRITER, query: 'INSERT INTO gz FORMAT TSV', body: 'x\n', headers: { 'content-encoding': 'snappy-ish' } });
  t.is(unknown.headers.get('x-clickhouse-exception-code'), '89');
  t.is((await ask(served.url, { query: 'SELECT groupArray(s) FROM (SELECT s FROM gz ORDER BY s)' })).text, "['one','two']\n");
});

test.serial('clients killed in the middle of compressed INSERTs give their query slots back', async (t) => {
  // A sink SIGKILLed mid-insert leaves its request half sent. More such requests than max_concurrent_queries (4):
  // were their slots kept, the next query would wait queue_max_wait_ms (30 s) and be refused.
  await ask(served.url, { user: WRITER, body: 'CREATE TABLE IF NOT EXISTS gz_cut (s String) ENGINE = MergeTree ORDER BY s' });
  const gz = gzipSync(Buffer.from('row\n'.repeat(200_000)));
  const auth = Buffer.from(`${WRITER.user}:${WRITER.password}`).toString('base64');
  const { hostname, port } = new URL(served.url);
  for (let i = 0; i < 6; i++) {
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(`POST /?query=${encodeURIComponent('INSERT INTO gz_cut FORMAT TSV')} HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${auth}\r\n`
          + `Content-Encoding: gzip\r\nContent-Length: ${gz.length}\r\n\r\n`);
        socket.write(gz.subarray(0, gz.length >> 1), () => setTimeout(() => { socket.resetAndDestroy(); resolve(); }, 100));
      });
      socket.once('error', reject);
    });
  }
  const began = Date.now();
  await stillServes(t);
  t.true(Date.now() - began < 10_000, `the next query waited ${Date.now() - began} ms for a slot`);
  t.is((await ask(served.url, { query: 'SELECT count() FROM gz_cut' })).text, '0\n', 'nothing of the cut inserts was stored');
});

test.serial('session_id keeps settings and temporary tables (the read-only user may have them, as on a server); a session serves one request at a time', async (t) => {
  const w = (body: string, extra: Record<string, string> = {}) => ask(served.url, { body, params: { session_id: 'sess-w', ...extra } });
  t.is((await w('CREATE TEMPORARY TABLE tmp (a UInt8) ENGINE = Memory')).status, 200);
  t.is((await w('INSERT INTO tmp VALUES (7)')).status, 200);
  t.is((await w('SET max_block_size = 777')).status, 200);
  t.is((await w("SELECT sum(a), getSetting('max_block_size') FROM tmp")).text, '7\t777\n');
  const [slow, second] = await Promise.all([w('SELECT sleepEachRow(0.5) FROM numbers(2) FORMAT Null'), (async () => {
    await new Promise((r) => setTimeout(r, 200));
    return w('SELECT 1');
  })()]);
  t.is(slow.status, 200);
  t.is(second.headers.get('x-clickhouse-exception-code'), '373');
  t.is((await ask(served.url, { body: 'SELECT 1', params: { session_id: 'never-opened', session_check: '1' } })).headers.get('x-clickhouse-exception-code'), '372');
  t.is((await w('SELECT count() FROM tmp', { close_session: '1' })).text, '1\n');
  t.is((await w('SELECT count() FROM tmp')).headers.get('x-clickhouse-exception-code'), '60', 'a closed session forgets its temporary table');
});

test.serial('clients that leave while their wait_end_of_query result is spooled: the endpoint stays up', async (t) => {
  // What a sink's client asks for (wait_end_of_query=1), killed while its result goes to the spool file: a chunk is
  // being written when the query learns that the client left. Destroying the file then ended the whole process with
  // ERR_STREAM_DESTROYED (`npm run chaos` with store kills: the store died after a sink kill, the next sink never
  // became ready). Small blocks, a few ms apart, so that the client leaves while a block is awaited.
  const auth = Buffer.from(`${ANALYST.user}:${ANALYST.password}`).toString('base64');
  const query = encodeURIComponent('SELECT number, sleepEachRow(0.005) FROM numbers(200) SETTINGS max_block_size = 1');
  for (let i = 0; i < 8; i++) {
    await new Promise<void>((resolve) => {
      const req = request(`${served.url}/?wait_end_of_query=1&query=${query}`, { headers: { authorization: `Basic ${auth}` } });
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => { req.destroy(); resolve(); }, 150 + i * 37);
    });
    const next = await ask(served.url, { query: 'SELECT 42' }).catch(async () => {
      await served.daemon.exited;
      return { text: `serve is gone: ${served.daemon.log().slice(-700)}` };
    });
    t.is(next.text, '42\n', `client ${i + 1}: the endpoint answers the next request`);
  }
});

test.serial('clients that leave while their spooled or document result is sent give their query slots back', async (t) => {
  // The spooled result (wait_end_of_query=1) and a document format (JSON) go to the client from a file after the
  // query ended; a client that leaves then must end the request as one that leaves mid-stream does. More of them than
  // max_concurrent_queries (4): were their slots kept, the next query would wait queue_max_wait_ms (30 s).
  const leave = async (path: string): Promise<void> => {
    const r = await rawGet(served.url, { path, stopAfterBytes: 64 * 1024 });
    t.is(r.status, 200, r.body.subarray(0, 300).toString());
    t.false(r.complete);
  };
  const rows = encodeURIComponent('SELECT number, toString(number) FROM numbers(100000)');
  for (let i = 0; i < 3; i++) await leave(`/?wait_end_of_query=1&query=${rows}`);
  for (let i = 0; i < 3; i++) await leave(`/?default_format=JSON&query=${rows}`);
  const began = Date.now();
  await stillServes(t);
  t.true(Date.now() - began < 10_000, `the next query waited ${Date.now() - began} ms for a slot`);
});

test.serial('clients that leave while their statement runs (a sink killed mid-INSERT) give their query slots back', async (t) => {
  // The engine finishes the statement after its client left; the answer's end must not wait for a client that is
  // gone. More of them than max_concurrent_queries (4): were their slots kept, the next query would wait 30 s.
  await ask(served.url, { user: WRITER, body: 'CREATE TABLE IF NOT EXISTS slow_in (n UInt64) ENGINE = MergeTree ORDER BY n' });
  const auth = Buffer.from(`${WRITER.user}:${WRITER.password}`).toString('base64');
  const body = 'INSERT INTO slow_in SELECT number FROM numbers(10) WHERE NOT ignore(sleepEachRow(0.05))';
  for (let i = 0; i < 6; i++) {
    await new Promise<void>((resolve) => {
      const req = request(served.url, { method: 'POST', headers: { authorization: `Basic ${auth}`, 'content-length': Buffer.byteLength(body) } });
      req.on('error', () => resolve());
      req.end(body, () => setTimeout(() => { req.destroy(); resolve(); }, 150));
    });
  }
  const began = Date.now();
  await stillServes(t);
  t.true(Date.now() - began < 10_000, `the next query waited ${Date.now() - began} ms for a slot`);
});
