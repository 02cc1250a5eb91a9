// Case table for splitting task lines: names and command lines with spaces and parentheses (docs/atop-format.md §4).
import test from 'ava';
import { tokenizeTask } from './task-tokens.js';

const PRG_28_TAIL = '1 0 1 0 0 0 0 0 0 0 0 y 0 0 - N (/user.slice)';

const cases: Array<{ title: string; rest: string; prg: boolean; name: string; cmdline?: string; count: number }> = [
  { title: 'plain name', rest: '3 (python3) S 100 5 9', prg: false, name: '(python3)', count: 6 },
  { title: 'spaces and parentheses in a 14-character name', rest: '45 (cpu burn (x) 1) R 100 80', prg: false, name: '(cpu burn (x) 1)', count: 5 },
  { title: 'name wrapped in its own parentheses', rest: '7 ((sd-pam)) S 100', prg: false, name: '((sd-pam))', count: 4 },
  { title: 'name that looks like a state after a parenthesis', rest: '8 (a) S b) S 100', prg: false, name: '(a) S b)', count: 4 },
  { title: '15-character name, the longest comm', rest: '9 (kworker/0:0H-ev) I 100', prg: false, name: '(kworker/0:0H-ev)', count: 4 },
  { title: 'empty name', rest: '9 () Z 100', prg: false, name: '()', count: 4 },
  { title: '-Z output is split on spaces', rest: '45 cpu_burn_(x)_1 R 100', prg: false, name: 'cpu_burn_(x)_1', count: 4 },
  {
    title: 'cmdline with an unbalanced parenthesis (php-fpm, atop issue #285)',
    rest: `10 (php-fpm) S 0 0 10 1 0 1700000000 (php-fpm: master process (/etc/php-fpm/php-fpm.conf)   ) ${PRG_28_TAIL}`,
    prg: true, name: '(php-fpm)', cmdline: '(php-fpm: master process (/etc/php-fpm/php-fpm.conf)   )', count: 27,
  },
  {
    title: 'cmdline that ends inside an opened parenthesis (cut at 255 bytes)',
    rest: `46 (python3) S 0 0 46 4 0 1700000000 ([t.join() ${PRG_28_TAIL}`,
    prg: true, name: '(python3)', cmdline: '([t.join()', count: 27,
  },
  {
    title: 'cmdline that imitates the PRG tail cannot end early',
    rest: `11 (sh) S 0 0 11 1 0 1700000000 (sh -c echo ) 1 0 1 0 0 0 0 0 0 0 0 y 0 0 - N (/x)) ${PRG_28_TAIL}`,
    prg: true, name: '(sh)', cmdline: '(sh -c echo ) 1 0 1 0 0 0 0 0 0 0 0 y 0 0 - N (/x))', count: 27,
  },
  {
    title: '2.4 layout: no new-flag, no cgroup',
    rest: '1 (bash) S 0 0 1 1 0 1705248124 (bash) 0 0 1 0 0 0 0 0 0 0 0 y 0 0 -',
    prg: true, name: '(bash)', cmdline: '(bash)', count: 25,
  },
  {
    title: '2.10 layout: cgroup path with a space, end time and idle threads',
    rest: '1 (bash) S 0 0 1 1 0 1705248124 () 0 0 1 0 0 0 0 0 0 0 0 y 0 0 - N (/my app.slice) 0 0',
    prg: true, name: '(bash)', cmdline: '()', count: 29,
  },
];

for (const c of cases) {
  test(`task tokens: ${c.title}`, (t) => {
    const tokens = tokenizeTask(c.rest, c.prg);
    if (typeof tokens === 'string') return t.fail(tokens);
    t.is(tokens[1], c.name);
    if (c.cmdline !== undefined) t.is(tokens[9], c.cmdline);
    t.is(tokens.length, c.count);
  });
}

test('a name that is never closed is reported', (t) => {
  t.is(typeof tokenizeTask('12 (no close here at all S 100', false), 'string');
});
