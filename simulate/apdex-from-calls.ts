// Turns the simulated run's CALL events into what the 1C performance-evaluation subsystem would have exported:
// one key operation per form/command (the first line of the call context), each call one measurement. Targets
// are assigned per operation in a fixed order so that a demo shows operations both above and below T.
import type { SimKeyOperation } from './apdex-export.js';
import type { TjSimRecord } from './tj-generator.js';

/** Target times T (s) handed out to the operations in order of first appearance. */
const TARGETS = [1.5, 1, 2, 0.75, 3];

export function keyOperationsFromCalls(records: TjSimRecord[]): SimKeyOperation[] {
  const ops = new Map<string, SimKeyOperation>();
  for (const r of records) {
    if (r.event.name !== 'CALL') continue;
    const props = new Map(r.event.props);
    const context = (props.get('Context') ?? '').split('\n').map((l) => l.trim()).find((l) => l !== '');
    if (!context) continue;
    let op = ops.get(context);
    if (!op) {
      const i = ops.size;
      op = {
        uid: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, name: context,
        nameFull: context, priority: i + 1, targetValue: TARGETS[i % TARGETS.length], measurements: [],
      };
      ops.set(context, op);
    }
    op.measurements.push({
      value: r.event.duration_us / 1e6, startMs: (r.event.end_us - r.event.duration_us) / 1000,
      userName: props.get('Usr') ?? '', sessionNumber: Number(props.get('SessionID') ?? 0), weight: 1, runningError: false,
    });
  }
  return [...ops.values()];
}
