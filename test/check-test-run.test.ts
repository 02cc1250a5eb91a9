// scripts/check-test-run.ts, which .ci/run calls after ava: a run counts only when ava finished, enough tests ran,
// and under CI none was skipped. The TAP text is what ava 6 prints with --tap.
import test from 'ava';
import { judge, readTap } from '../scripts/check-test-run.js';

const TAP = [
  '> perfpipe@0.1.0 test', '> ava --tap', '', 'TAP version 13',
  'ok 1 - parsers › a value spanning 3 lines keeps its line breaks',
  'not ok 2 - pg-live › en: lock waits', '  ---', '    name: AssertionError', '  ...',
  'ok 3 - report-html › the page renders [skipped: chromium not on PATH] # SKIP',
  'ok 4 - later # TODO',
  '', '1..4', '# tests 4', '# pass 1', '# skip 1', '# todo 1', '# fail 1', '',
].join('\n');

test('ran, failed and skipped tests are told apart, TAP diagnostics and npm lines ignored', (t) => {
  t.deepEqual(readTap(TAP), {
    executed: 2, failed: ['pg-live › en: lock waits'], finished: true,
    skipped: ['report-html › the page renders [skipped: chromium not on PATH]', 'later'],
  });
});

test('a whole run passes; too few tests, a missing plan line, failures and, under CI, skips each fail it', (t) => {
  const whole = { executed: 800, failed: [], skipped: [], finished: true };
  t.deepEqual(judge(whole, 750, true), []);
  t.deepEqual(judge({ ...whole, skipped: ['x [skipped: no ../shared/corpus/tj beside the clone]'] }, 750, false), [], 'locally a skip is reported, not fatal');
  t.deepEqual(judge({ ...whole, skipped: ['x [skipped: no ../shared/corpus/tj beside the clone]'] }, 750, true),
    ['1 tests were skipped under CI=true:\n  - x [skipped: no ../shared/corpus/tj beside the clone]']);
  t.deepEqual(judge({ ...whole, executed: 640 }, 750, true),
    ['only 640 tests ran; at least 750 are expected (is ../shared/corpus there? did a test file fail to load?)']);
  t.deepEqual(judge({ ...whole, finished: false, failed: ['a'] }, 750, false), ['ava did not finish (no plan line in its TAP output)', '1 tests failed']);
});
