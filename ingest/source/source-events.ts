// What sources tell the outside world. Tailers do not log: they call this narrow object and the CLI
// turns the calls into pino lines and Prometheus counters in one place (STYLE §3).

export interface SourceEvents {
  fileAdded(path: string, fileKey: string, offset: number): void;
  fileRotated(oldPath: string, newPath: string, fileKey: string): void;
  fileTruncated(path: string, fileKey: string, size: number, offset: number): void;
  fileDeleted(path: string, fileKey: string): void;
  fileFinished(path: string, fileKey: string, offset: number): void;
  bytesRead(path: string, bytes: number): void;
  segmentPublished(path: string, events: number, errors: number, bytes: number): void;
  publishFailed(path: string, error: Error, attempt: number): void;
  readFailed(path: string, error: Error): void;
  replayed(path: string, start: number, end: number): void;
}

const noop = (): void => {};

export const silentSourceEvents: SourceEvents = {
  fileAdded: noop, fileRotated: noop, fileTruncated: noop, fileDeleted: noop, fileFinished: noop,
  bytesRead: noop, segmentPublished: noop, publishFailed: noop, readFailed: noop, replayed: noop,
};
