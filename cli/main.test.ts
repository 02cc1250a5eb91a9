// `perfpipe --help` is written from the command table: it cannot leave out a command, and it names every report
// and parse format the commands take (issue 30: it listed `report apdex|locks|pg-locks` and left out pg-waits).
import test from 'ava';
import { COMMANDS, helpText } from './main.js';
import { REPORT_NAMES } from './commands/report.js';
import { PARSE_FORMATS } from './commands/parse.js';

const help = helpText();
/** `perfpipe <words>`, where words may be alternatives joined by `|` (`report apdex|locks`). */
const named = (...words: string[]): boolean => help.split('\n').some((line) => {
  const m = /^ {2}perfpipe (\S+)(?: (\S+))?/.exec(line);
  return m !== null && m[1] === words[0] && (words[1] === undefined || (m[2] ?? '').split('|').includes(words[1]));
});

test('every command the CLI runs has a line in the help, and every help line is a command it runs', (t) => {
  for (const c of COMMANDS) t.true(named(c.name), `perfpipe ${c.name}`);
  for (const line of help.split('\n').filter((l) => l.startsWith('  perfpipe '))) {
    const word = line.trim().split(/\s+/)[1];
    t.true(COMMANDS.some((c) => c.name === word), line);
  }
});

test('the help names every report and every parse format', (t) => {
  for (const r of REPORT_NAMES) t.true(named('report', r), `perfpipe report ${r}`);
  for (const f of PARSE_FORMATS) t.true(named('parse', f), `perfpipe parse ${f}`);
});

test('a check that could not fail is no check: a report left out is seen', (t) => {
  t.true(named('report', 'pg-waits'));
  t.false(named('report', 'no-such-report'));
});
