// The one door to kafkajs's runtime for perfpipe's own modules (types may be imported from 'kafkajs' anywhere).
// It first swaps kafkajs's byte-at-a-time CRC-32C for ./crc32c.ts: kafkajs is frozen at 2.2.4 (unmaintained
// since 2023) and offers no hook, so the replacement goes into the module cache under the path kafkajs
// requires it from, before kafkajs loads. Loaded through require so that nothing can load kafkajs earlier
// from this module; if something else already did, kafkajs keeps its own (slower, equal) CRC.
import { createRequire } from 'node:module';
import { crc32c } from './crc32c.js';

const require = createRequire(import.meta.url);

function installFastCrc32c(): boolean {
  const path = require.resolve('kafkajs/src/protocol/recordBatch/crc32C/crc32C.js');
  const cached = require.cache[path];
  if (cached) return cached.exports === crc32c;
  if (require.cache[require.resolve('kafkajs')]) return false;
  const module = { id: path, filename: path, loaded: true, exports: crc32c, children: [], paths: [] };
  require.cache[path] = module as unknown as NodeJS.Module;
  return true;
}

/** Whether kafkajs checksums record batches with ./crc32c.ts (false only when kafkajs was loaded before this module). */
export const fastCrc32c = installFastCrc32c();

const kafkajs = require('kafkajs') as typeof import('kafkajs');

export const Kafka = kafkajs.Kafka;
export type Kafka = import('kafkajs').Kafka;
export const { AssignerProtocol, CompressionTypes, Partitioners, logLevel } = kafkajs;
