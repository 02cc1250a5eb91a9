import test from 'ava';
import { flockHolder } from './data-dir-lock.js';

// /proc/locks as Linux 6.x writes it; fe:00 is device 0xfe00 (65024), the waiter ("->") blocks on lock 2.
const LOCKS = [
  '1: FLOCK  ADVISORY  WRITE 25821 fe:00:10289519 0 EOF',
  '2: FLOCK  ADVISORY  WRITE 25399 fe:00:10608836 0 EOF',
  '2: -> FLOCK  ADVISORY  WRITE 25400 fe:00:10608836 0 EOF',
  '3: POSIX  ADVISORY  WRITE 911 08:01:10289519 0 EOF',
  '4: FLOCK  ADVISORY  WRITE 777 103:02:42 0 EOF',
].join('\n');

test('the holder of a flock is found by device and inode', (t) => {
  t.is(flockHolder(LOCKS, 65024, 10289519), 25821);
  t.is(flockHolder(LOCKS, 65024, 10608836), 25399, 'the holder, not the process waiting for it');
  // Device 259:2 (an NVMe partition): major 0x103, minor 2.
  t.is(flockHolder(LOCKS, (0x103 << 8) | 2, 42), 777);
});

test('no holder: another device, an fcntl lock, no lock at all', (t) => {
  t.is(flockHolder(LOCKS, 0x0801, 10608836), null);
  t.is(flockHolder(LOCKS, 0x0801, 10289519), null, 'a POSIX lock is not the engine\'s');
  t.is(flockHolder('', 65024, 10289519), null);
});
