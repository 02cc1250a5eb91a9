// A TJ file source in a child process that runs as an unprivileged user, so that a file without read
// permission really gives EACCES (root reads every file whatever its mode). Used by the permission case
// of file-source-limits-torture.test.ts. argv[2]: JSON { loc, cp, uid? }. Prints one JSON line per
// published segment (`{"users":[…]}`), per read failure (`{"failed":path,"code":…}`) and per scan begun
// (`{"scan":n}`); SIGTERM stops it.
import { silentSourceEvents } from '../../ingest/source/source-events.js';
import { tjSource } from './torture-support.js';
import { rowsOf } from './segments.js';

const { loc, cp, uid } = JSON.parse(process.argv[2] as string) as { loc: string; cp: string; uid?: number };
if (uid !== undefined && process.setgid && process.setuid) {
  process.setgid(uid);
  process.setuid(uid);
}
const say = (o: unknown): void => { process.stdout.write(`${JSON.stringify(o)}\n`); };
const source = tjSource({ root: loc, loc, cp, proc: () => loc }, async (s) => {
  say({ users: rowsOf(s, 'tj_events').map((r) => r.user) });
}, {
  events: { ...silentSourceEvents, readFailed: (path, error) => say({ failed: path, code: (error as NodeJS.ErrnoException).code }) },
}, (n) => say({ scan: n }));
await source.start();
say({ started: process.getuid?.() });
process.once('SIGTERM', () => { void source.stop().then(() => process.exit(0)); });
