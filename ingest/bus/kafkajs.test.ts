// kafkajs runs with perfpipe's CRC-32C, which must give exactly kafkajs's checksums (a broker refuses a batch
// whose CRC is wrong as CORRUPT_MESSAGE, so the Kafka tests would fail too, but only here is the cause named).
import test from 'ava';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fastCrc32c } from './kafkajs.js';
import { crc32c, crc32cJs } from './crc32c.js';
import { packageRoot } from '../store/package-root.js';

const require = createRequire(import.meta.url);
const kafkajsCrcPath = require.resolve('kafkajs/src/protocol/recordBatch/crc32C/crc32C.js');
// kafkajs's own implementation, read and evaluated apart from the module cache that now holds ours.
const kafkajsCrc32c = new Function('module', `${readFileSync(kafkajsCrcPath, 'utf8')}; return module.exports;`)({ exports: {} }) as (b: Buffer) => number;

for (const [name, crc] of [['the CRC-32C kafkajs gets (native)', crc32c], ['the JavaScript fallback', crc32cJs]] as const) {
  test(`${name}: the standard check input gives e3069283`, (t) => {
    t.is(crc(Buffer.from('123456789')).toString(16), 'e3069283');
    t.is(crc(Buffer.alloc(0)), 0);
  });

  test(`${name}: every length and alignment gives kafkajs's own checksum`, (t) => {
    const data = randomBytes(4096);
    for (let start = 0; start < 9; start++) {
      for (let length = 0; length < 300; length++) {
        const slice = data.subarray(start, start + length);
        if (crc(slice) !== kafkajsCrc32c(slice)) return t.fail(`differs at start ${start}, length ${length}`);
      }
    }
    const large = randomBytes(3 << 20).subarray(5);
    t.is(crc(large), kafkajsCrc32c(large));
  });
}

test('the native CRC-32C loads on this platform', (t) => {
  t.not(crc32c, crc32cJs);
});

test('kafkajs loaded through ./kafkajs.js checksums with ours', (t) => {
  t.true(fastCrc32c);
  t.is(require.cache[kafkajsCrcPath]?.exports, crc32c);
});

test('every module takes kafkajs values only through ingest/bus/kafkajs.ts', (t) => {
  const root = packageRoot();
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && path !== join(root, 'ingest', 'bus', 'kafkajs.ts')) {
        const text = readFileSync(path, 'utf8');
        if (/^import (?!type )[^;]*from 'kafkajs';/m.test(text) || /require\('kafkajs'\)/.test(text)) offenders.push(relative(root, path));
      }
    }
  };
  // Tests and benches too: whichever module loads kafkajs first decides which CRC it keeps.
  for (const dir of ['ingest', 'simulate', 'scripts', 'bench', 'test']) walk(join(root, dir));
  t.deepEqual(offenders, []);
});
