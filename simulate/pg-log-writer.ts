// PostgreSQL stderr log text as the logging collector writes it (docs/pg-format.md §2–§3): every line of an
// entry carries the `log_line_prefix` with the entry's one timestamp, `%l` counts prefixed lines per process, and
// line breaks inside a field become `\n\t`. Pure: entries in, text out.

/** One ereport: the primary line and its DETAIL/HINT/CONTEXT/STATEMENT lines, in PostgreSQL's order. */
export interface PgLogEntry {
  /** Epoch µs of the report; `%m` prints it truncated to ms. */
  at_us: number;
  pid: number;
  /** A client backend: the part after `%q` is printed. False for the postmaster and background processes. */
  session: boolean;
  user?: string;
  database?: string;
  application?: string;
  /** Session start, epoch s, for `%c` and `%s`. */
  session_start_s?: number;
  lines: { label: PgLineLabel; text: string }[];
}

export type PgLineLabel = 'LOG' | 'ERROR' | 'FATAL' | 'DETAIL' | 'HINT' | 'CONTEXT' | 'STATEMENT';

/** The prefix PostgreSQL's Debian packages configure (docs/pg-format.md §3); what the simulator writes by default. */
export const DEBIAN_PREFIX = '%m [%p] %q%u@%d ';

const ESCAPES = new Set(['m', 't', 'n', 'p', 'u', 'd', 'a', 'l', 'c', 's', 'q', 'h', 'r', 'x', 'e', 'v', 'b', '%']);

/** Rejects a prefix with an escape the writer cannot fill, naming it; PostgreSQL drops unknown escapes silently. */
export function checkPrefix(prefix: string): string | null {
  for (let i = 0; i < prefix.length; i++) {
    if (prefix[i] !== '%') continue;
    const c = prefix[++i];
    if (c === undefined || !ESCAPES.has(c)) return `log_line_prefix escape %${c ?? ''} is not one the simulator writes; use %m %t %n %p %u %d %a %l %c %s %q %h %r %x %e %v %b %%`;
  }
  return null;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

function utcText(ms: number, withMs: boolean): string {
  const d = new Date(ms);
  const base = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${withMs ? `${base}.${pad(d.getUTCMilliseconds(), 3)}` : base} UTC`;
}

export interface PgLogWriter {
  /** The entry's lines, each ending in `\n`. */
  format(entry: PgLogEntry): string;
}

/** `log_timezone = 'UTC'`: the simulated server logs in UTC, so the times need no zone table. */
export function createPgLogWriter(prefix: string = DEBIAN_PREFIX): PgLogWriter {
  const lineNumbers = new Map<number, number>();
  const render = (e: PgLogEntry, lineNum: number): string => {
    let out = '';
    for (let i = 0; i < prefix.length; i++) {
      const ch = prefix[i] as string;
      if (ch !== '%') { out += ch; continue; }
      const c = prefix[++i];
      const ms = Math.floor(e.at_us / 1000);
      const start = e.session_start_s ?? Math.floor(ms / 1000);
      switch (c) {
        case 'm': out += utcText(ms, true); break;
        case 't': out += utcText(ms, false); break;
        case 'n': out += (ms / 1000).toFixed(3); break;
        case 'p': out += String(e.pid); break;
        case 'l': out += String(lineNum); break;
        case 'c': out += `${start.toString(16)}.${e.pid.toString(16)}`; break;
        case 's': out += utcText(start * 1000, false); break;
        case 'x': out += '0'; break;
        case 'e': out += e.lines[0]?.label === 'ERROR' ? '40P01' : '00000'; break;
        case 'v': out += e.session ? `3/${lineNum}` : ''; break;
        case 'b': out += e.session ? 'client backend' : 'postmaster'; break;
        case '%': out += '%'; break;
        case 'q': if (!e.session) return out; break;
        // Session-only escapes print empty outside a client backend (docs/pg-format.md §3).
        case 'u': out += e.session ? (e.user ?? '') : ''; break;
        case 'd': out += e.session ? (e.database ?? '') : ''; break;
        case 'a': out += e.session ? (e.application ?? '') : ''; break;
        case 'h': out += e.session ? '10.0.0.21' : ''; break;
        case 'r': out += e.session ? '10.0.0.21(51994)' : ''; break;
        default: break;
      }
    }
    return out;
  };
  return {
    format(entry) {
      let text = '';
      for (const line of entry.lines) {
        const n = (lineNumbers.get(entry.pid) ?? 0) + 1;
        lineNumbers.set(entry.pid, n);
        // Every embedded line break becomes "\n\t" (docs/pg-format.md §2 tab-line).
        text += `${render(entry, n)}${line.label}:  ${line.text.replaceAll('\n', '\n\t')}\n`;
      }
      return text;
    },
  };
}
