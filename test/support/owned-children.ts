// Every process a test file starts ends with that file's worker. When ava's timeout stops a worker (SIGTERM), or a
// test throws before its `finally`, the daemons, servers and CLI runs it started would otherwise live on: they keep
// the machine's two cores busy and slow every file after them (a CI run has 90 minutes in all).
import type { ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();
/** Synchronous stops of servers that run detached (a Kafka broker, a PostgreSQL cluster): no ChildProcess to kill. */
const stops = new Set<() => void>();

function killAll(): void {
  for (const stop of stops) {
    try {
      stop();
    } catch {
      // Already down.
    }
  }
  stops.clear();
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
  live.clear();
}

process.once('exit', killAll);
// ava stops a timed-out worker with SIGTERM; Node's default would exit without the 'exit' handlers above.
process.once('SIGTERM', () => {
  killAll();
  process.exit(143);
});

/** Registers `child` to be SIGKILLed if it is still running when this test process ends. */
export function owned<T extends ChildProcess>(child: T): T {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Runs `stop` (synchronous) if this test process ends before the returned function is called to forget it. */
export function stopAtExit(stop: () => void): () => void {
  stops.add(stop);
  return () => stops.delete(stop);
}
