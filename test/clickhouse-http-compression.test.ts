// Compression on ClickHouse's HTTP interface, both ways, as the clients use it: HTTP Content-Encoding when the
// request sets enable_http_compression=1 (and never otherwise), ClickHouse's own compressed blocks for compress=1
// and decompress=1, with their checksums checked (docs/clickhouse-http.md §7).
import test from 'ava';
import { request } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, deflateSync, gunzipSync, inflateSync } from 'node:zlib';
import { compressFrameSync, decompressFrameSync } from 'lz4-napi';
import { compressBlocks, createBlockDecoder } from '../daemon/clickhouse-http/compression/compressed-block.js';
import { ANALYST, WRITER, ask, startServe, type Served } from './support/clickhouse-serve.js';

let served: Served;
test.before(async () => {
  served = await startServe();
  const r = await ask(served.url, { user: WRITER, body: 'CREATE TABLE IF NOT EXISTS z (n UInt64, s String) ENGINE = MergeTree ORDER BY n' });
  if (r.status !== 200) throw new Error(r.text);
});
test.after.always(() => served?.stop());

/** A request whose answer is read as raw bytes (fetch would undo the Content-Encoding itself). */
function raw(path: string, o: { body?: Buffer; headers?: Record<string, string>; user?: typeof ANALYST } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const who = o.user ?? ANALYST;
  return new Promise((resolve, reject) => {
    const req = request(`${served.url}${path}`, {
      method: o.body ? 'POST' : 'GET',
      headers: { authorization: `Basic ${Buffer.from(`${who.user}:${who.password}`).toString('base64')}`, ...o.headers },
    }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

const decodeBlocks = async (data: Buffer): Promise<Buffer> => {
  const d = createBlockDecoder(true);
  const parts: Buffer[] = [];
  d.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise((resolve, reject) => { d.on('end', resolve); d.on('error', reject); });
  d.end(data);
  await done;
  return Buffer.concat(parts);
};

const QUERY = encodeURIComponent('SELECT number, toString(number) FROM numbers(300000)');

test.serial('the answer is compressed in the Accept-Encoding the client names only when enable_http_compression=1', async (t) => {
  const plain = await raw(`/?query=${QUERY}`);
  t.is(plain.headers['content-encoding'], undefined);
  const unasked = await raw(`/?query=${QUERY}`, { headers: { 'accept-encoding': 'gzip' } });
  t.is(unasked.headers['content-encoding'], undefined, 'Accept-Encoding alone does not compress, as on a server');
  const decoders: Record<string, (b: Buffer) => Buffer> = { gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync, lz4: decompressFrameSync };
  for (const [name, decode] of Object.entries(decoders)) {
    const r = await raw(`/?query=${QUERY}&enable_http_compression=1`, { headers: { 'accept-encoding': name } });
    t.is(r.headers['content-encoding'], name);
    t.true(r.body.length < plain.body.length * 0.8, `${name}: ${r.body.length} bytes for ${plain.body.length}`);
    t.true(decode(r.body).equals(plain.body), name);
  }
  const preferred = await raw(`/?query=SELECT%201&enable_http_compression=1`, { headers: { 'accept-encoding': 'zstd, br;q=0.9, gzip;q=0' } });
  t.is(preferred.headers['content-encoding'], 'br', 'zstd is not written here; gzip was refused with q=0');
});

test.serial('compress=1 answers in ClickHouse\'s compressed blocks, errors included; enable_http_compression wraps them again', async (t) => {
  const plain = await raw(`/?query=${QUERY}`);
  const blocks = await raw(`/?query=${QUERY}&compress=1`);
  t.is(blocks.headers['content-encoding'], undefined);
  t.true((await decodeBlocks(blocks.body)).equals(plain.body));
  const both = await raw(`/?query=${QUERY}&compress=1&enable_http_compression=1`, { headers: { 'accept-encoding': 'gzip' } });
  t.true((await decodeBlocks(gunzipSync(both.body))).equals(plain.body));
  const error = await raw(`/?query=${encodeURIComponent('SELECT * FROM nowhere')}&compress=1`);
  t.is(error.status, 404);
  t.regex((await decodeBlocks(error.body)).toString(), /^Code: 60\. DB::Exception: /);
});

test.serial('a body in gzip, deflate, br, lz4 or ClickHouse\'s blocks (decompress=1) is read; a wrong checksum is refused', async (t) => {
  const rows = (from: number) => Buffer.from(Array.from({ length: 1000 }, (_, i) => `${from + i}\trow ${from + i}\n`).join(''));
  const insert = (path: string, body: Buffer, headers: Record<string, string> = {}) => raw(`/?query=${encodeURIComponent('INSERT INTO z FORMAT TSV')}${path}`, { user: WRITER, body, headers });
  t.is((await insert('', deflateSync(rows(0)), { 'content-encoding': 'deflate' })).status, 200);
  t.is((await insert('', brotliCompressSync(rows(1000)), { 'content-encoding': 'br' })).status, 200);
  t.is((await insert('', compressFrameSync(rows(2000)), { 'content-encoding': 'lz4' })).status, 200);
  t.is((await insert('&decompress=1', compressBlocks(rows(3000)))).status, 200);
  const corrupt = compressBlocks(rows(4000));
  corrupt[3] = (corrupt[3] as number) ^ 1;
  const refused = await insert('&decompress=1', corrupt);
  t.is(refused.headers['x-clickhouse-exception-code'], '40');
  t.regex(refused.body.toString(), /^Code: 40\. DB::Exception: Checksum doesn't match/);
  t.is((await insert('&decompress=1&http_native_compression_disable_checksumming_on_decompress=1', corrupt)).status, 200, 'a damaged checksum alone, with checksums off');
  t.is((await ask(served.url, { query: 'SELECT count(), uniqExact(n), max(n) FROM z' })).text, '5000\t5000\t4999\n');
});
