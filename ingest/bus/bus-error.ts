// Operational failure of a bus (docs/style.md §5): what happened, where (topic/partition/offset) and whether a retry helps.
// Subclasses Error directly until the shared PerfpipeError base exists; then it becomes its direct subclass.

export interface BusErrorContext {
  topic?: string;
  partition?: number;
  offset?: string;
  segment?: string;
}

export class BusError extends Error {
  override readonly name = 'BusError';
  /** A permanent failure cannot be cured by retrying (bus stopped, bad config); others may succeed later. */
  readonly permanent: boolean;
  readonly context: BusErrorContext;

  constructor(message: string, options: { permanent: boolean; context?: BusErrorContext; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.permanent = options.permanent;
    this.context = options.context ?? {};
  }
}
