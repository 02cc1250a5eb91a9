// The configs of the atop sources that run atop themselves: a location (or an interval) alone gives the documented
// defaults, the flags give the same entries, and each mistake names its key, its value and what was expected.
import test from 'ava';
import { parseConfig } from '../../config/config.js';
import { configFromFlags } from '../../../cli/flags/config-from-flags.js';
import { ATOP_STORED_LABELS } from './atop-labels.js';

test('an atop_raw source needs only its location; pattern, command and labels have their defaults', (t) => {
  t.deepEqual(parseConfig({ sources: [{ type: 'atop_raw', location: '/var/log/atop' }] }).sources[0], {
    type: 'atop_raw', location: '/var/log/atop', pattern: 'atop_*', command: 'atop', labels: ATOP_STORED_LABELS,
  });
});

test('an atop_spawn source needs only its interval; the executable, labels and backoff have their defaults', (t) => {
  t.deepEqual(parseConfig({ sources: [{ type: 'atop_spawn', interval_s: 10 }] }).sources[0], {
    type: 'atop_spawn', location: 'atop', interval_s: 10, labels: ATOP_STORED_LABELS, restart_backoff_max_s: 60,
  });
});

test('--atop-raw DIR and --atop-spawn INTERVAL give the same entries as the config file', (t) => {
  const { config } = configFromFlags(['--atop-raw', '/var/log/atop', '--atop-spawn', '5'], 'usage');
  t.deepEqual(config.sources.map((s) => [s.type, s.location]), [['atop_raw', '/var/log/atop'], ['atop_spawn', 'atop']]);
  t.like(config.sources[1], { interval_s: 5 });
});

test('mistakes in atop_raw and atop_spawn entries are all reported at once, each with its key', (t) => {
  const error = t.throws(() => parseConfig({
    sources: [
      { type: 'atop_raw', location: '/x', pattern: '', labels: ['CPU', 'DISK'], tz: 'UTC' },
      { type: 'atop_spawn', interval_s: 1.5, labels: [] },
      { type: 'atop_spawn', interval_s: 0, restart_backoff_max_s: 'soon' },
      { type: 'atop_spawn' },
    ],
  }, 'p.yaml'));
  t.is(error?.message, [
    'p.yaml is not valid:',
    '  sources[0].pattern: is empty; expected a glob such as "atop_*"',
    '  sources[0].labels[1]: "DISK" is not an atop -P label; expected one of ALL, CPU, cpu, CPL, GPU, MEM, SWP, PAG, PSI, LVM, MDD, DSK, NFM, NFC, NFS, NET, IFB, NUM, NUC, LLC, CGR, PRG, PRC, PRM, PRD, PRN, PRE (case matters: CPU is the total, cpu one core)',
    '  sources[0]: unknown key "tz"',
    '  sources[1].interval_s: 1.5 is not whole; expected whole seconds >= 1, e.g. 10',
    '  sources[1].labels: is empty; expected atop -P labels such as ["CPU", "cpu", "MEM"]',
    '  sources[2].interval_s: 0 is too small; expected whole seconds >= 1, e.g. 10',
    '  sources[2].restart_backoff_max_s: "soon" is not valid; expected a number',
    '  sources[3].interval_s: is required; expected a number',
  ].join('\n'));
});
