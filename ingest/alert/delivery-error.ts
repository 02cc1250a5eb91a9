// A notification POST that failed: which channel, and whether a retry can help (docs/style.md §5).
import { PerfpipeError } from '../errors/errors.js';

export class AlertDeliveryError extends PerfpipeError {
  constructor(message: string, readonly channel: string, options: { cause?: unknown; permanent?: boolean } = {}) {
    super(message, options);
  }
}
