// Splits a task line (PRG, PRC, PRM, PRD, PRN, PRE) after the header into tokens. The name is `(comm)`,
// at most 15 bytes that may hold spaces and parentheses: `(cpu burn (x) 1)`, `((sd-pam))`. PRG adds a
// `(cmdline)` of up to 255 bytes with unbalanced parentheses allowed, and from 2.8 a `(cgroup)`.
//
// The name ends at the last `)` within 16 characters of its `(` that is followed by a one-letter state
// and a space. The cmdline ends at the rightmost `)` after which the known PRG tail follows (11 integers,
// is_process y/n, 2 integers, container, then the optional new-flag, (cgroup), end time, idle threads):
// scanning from the right means a cmdline cannot fake its own end. With `-Z` nothing is parenthesised
// and every token is space-free, so a plain split is right. A -Z name that itself starts with `(` and
// ends with `)` (e.g. `(sd-pam)`) is indistinguishable from the default form and loses its parentheses.

/** comm holds at most 15 bytes (PNAMLEN); a string of them is at most 15 characters. */
const NAME_MAX = 15;
const AFTER_NAME = /^ \S( |$)/;
const PRG_TAIL = /^ (-?\d+(?: -?\d+){10} [yn] -?\d+ -?\d+ \S+)(?: (\S))?(?: (\(.*\)))?((?: -?\d+)*)$/;
/** PRG tokens between the name and the cmdline: state ruid rgid tgid nthreads exit_code start_epoch. */
const PRG_BEFORE_CMDLINE = 7;

/** Tokens of a task line, or a sentence saying why they cannot be found. */
export function tokenizeTask(rest: string, withCmdline: boolean): string[] | string {
  const space = rest.indexOf(' ');
  if (space < 0 || rest[space + 1] !== '(') return rest.split(' ');
  const open = space + 1;
  let close = -1;
  for (let j = Math.min(open + NAME_MAX + 1, rest.length - 1); j > open; j -= 1) {
    if (rest[j] === ')' && AFTER_NAME.test(rest.slice(j + 1, j + 4))) {
      close = j;
      break;
    }
  }
  if (close < 0) {
    return 'the process name opened with "(" is not closed by ")" and a state letter within 15 characters';
  }
  const head = [rest.slice(0, space), rest.slice(open, close + 1)];
  const after = rest.slice(close + 2);
  if (!withCmdline) return [...head, ...after.split(' ')];

  let cursor = 0;
  const before: string[] = [];
  for (let i = 0; i < PRG_BEFORE_CMDLINE; i += 1) {
    const next = after.indexOf(' ', cursor);
    if (next < 0) return [...head, ...after.split(' ')];
    before.push(after.slice(cursor, next));
    cursor = next + 1;
  }
  if (after[cursor] !== '(') return [...head, ...after.split(' ')];
  for (let k = after.lastIndexOf(')'); k > cursor; k = after.lastIndexOf(')', k - 1)) {
    const tail = PRG_TAIL.exec(after.slice(k + 1));
    if (tail === null) continue;
    const [, fixed = '', flag, cgroup, ints = ''] = tail;
    const tokens = [...head, ...before, after.slice(cursor, k + 1), ...fixed.split(' ')];
    if (flag !== undefined) tokens.push(flag);
    if (cgroup !== undefined) tokens.push(cgroup);
    if (ints !== '') tokens.push(...ints.slice(1).split(' '));
    return tokens;
  }
  return 'the command line opened with "(" is not followed by ")" and the PRG fields atop prints after it (ppid … is_process)';
}
