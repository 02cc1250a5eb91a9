// Reads ava's TAP output (`npm test -- --tap`) and fails unless the run was whole: ava finished (its plan line
// is there), at least MIN_EXECUTED tests ran, and, under CI=true, none was skipped or left as a todo.
// Why: a green run must mean every test ran and could fail (issue 15). A prerequisite missing under CI fails
// its test already (test/support/prerequisites.ts), but tests made per corpus file are never registered when
// the corpus is absent, and a test file that stops loading takes its tests with it; only a count sees that.
//
// Usage: tsx scripts/check-test-run.ts TAP_FILE [--min N]
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * At least this many tests run in a whole `npm test`. 763 were registered on 2026-12-01 (counted per file with
 * ava's registration stubbed out); the floor sits a little below so that removing a few tests in a change does
 * not need this edited, while a missing corpus (about 120 tests) or a file that no longer loads is caught.
 * Raise it when the suite grows.
 */
export const MIN_EXECUTED = 750;

export interface TapSummary {
  /** Tests that ran (passed or failed). */
  executed: number;
  failed: string[];
  /** Titles of tests reported `# SKIP` or `# TODO`. */
  skipped: string[];
  /** Whether ava printed its plan line (`1..N`), i.e. finished. */
  finished: boolean;
}

/** The TAP 13 lines ava writes: `ok 3 - title`, `not ok 4 - title`, `ok 5 - title # SKIP`, `1..5`. */
export function readTap(text: string): TapSummary {
  const summary: TapSummary = { executed: 0, failed: [], skipped: [], finished: false };
  for (const line of text.split('\n')) {
    if (/^1\.\.\d+$/.test(line)) summary.finished = true;
    const m = /^(not )?ok \d+(?: - (.*?))?(?: # (SKIP|TODO)\b.*)?$/i.exec(line);
    if (!m) continue;
    const title = m[2] ?? '';
    if (m[3]) summary.skipped.push(title);
    else {
      summary.executed++;
      if (m[1]) summary.failed.push(title);
    }
  }
  return summary;
}

/** The reasons the run does not count as whole, empty when it does. */
export function judge(s: TapSummary, min: number, ci: boolean): string[] {
  const problems: string[] = [];
  if (!s.finished) problems.push('ava did not finish (no plan line in its TAP output)');
  if (s.failed.length > 0) problems.push(`${s.failed.length} tests failed`);
  if (s.executed < min) problems.push(`only ${s.executed} tests ran; at least ${min} are expected (is ../shared/corpus there? did a test file fail to load?)`);
  if (ci && s.skipped.length > 0) problems.push(`${s.skipped.length} tests were skipped under CI=true:\n${s.skipped.map((t) => `  - ${t}`).join('\n')}`);
  return problems;
}

function main(argv: string[]): number {
  const file = argv[0];
  if (!file) {
    process.stderr.write('usage: tsx scripts/check-test-run.ts TAP_FILE [--min N]\n');
    return 2;
  }
  const at = argv.indexOf('--min');
  const min = at >= 0 ? Number(argv[at + 1]) : MIN_EXECUTED;
  const ci = /^(true|1|yes)$/i.test(process.env.CI ?? '');
  const summary = readTap(readFileSync(file, 'utf8'));
  const problems = judge(summary, min, ci);
  const line = `test run: ${summary.executed} tests ran, ${summary.skipped.length} skipped, ${summary.failed.length} failed (at least ${min} must run${ci ? ', none skip under CI' : ''})`;
  if (problems.length === 0) {
    process.stdout.write(`${line}\n`);
    return 0;
  }
  process.stderr.write(`${line}\n${problems.map((p) => `test run: ${p}`).join('\n')}\n`);
  return 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main(process.argv.slice(2));
