// The atop source's config: a location alone gives the documented defaults, and each mistake names its key.
import test from 'ava';
import { parseConfig } from '../../config/config.js';

test('an atop source needs only its location; pattern and idle time have their defaults', (t) => {
  t.deepEqual(parseConfig({ sources: [{ type: 'atop', location: '/var/log/perfpipe/atop.txt' }] }).sources[0], {
    type: 'atop', location: '/var/log/perfpipe/atop.txt', pattern: '*.txt', idle_finish_s: 60,
  });
});

test('an atop source rejects a time zone, an empty pattern and a negative idle time, all at once', (t) => {
  const error = t.throws(() => parseConfig({ sources: [{ type: 'atop', location: '/x', tz: 'UTC', pattern: '', idle_finish_s: -1 }] }, 'p.yaml'));
  t.is(error?.message, [
    'p.yaml is not valid:',
    '  sources[0].pattern: is empty; expected a glob such as "*.txt"',
    '  sources[0].idle_finish_s: -1 is negative; expected seconds >= 0',
    '  sources[0]: unknown key "tz"',
  ].join('\n'));
});
