// Operational failures (docs/style.md §5): a base with direct subclasses, each saying whether a retry can help.
// Data problems are not errors: they are IngestError records (schemas/ingest-error.ts).

export class PerfpipeError extends Error {
  readonly permanent: boolean;
  constructor(message: string, options: { cause?: unknown; permanent?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.permanent = options.permanent ?? false;
  }
}

/** A configuration or command-line value that cannot work; fix it and start again. */
export class ConfigError extends PerfpipeError {
  constructor(message: string) {
    super(message, { permanent: true });
  }
}

/** Reading a source failed (a file, a directory). */
export class SourceError extends PerfpipeError {
  constructor(message: string, readonly file: string, options: { cause?: unknown; permanent?: boolean } = {}) {
    super(message, options);
  }
}

/** Writing to ClickHouse failed. */
export class SinkError extends PerfpipeError {
  constructor(message: string, readonly table: string, options: { cause?: unknown; permanent?: boolean } = {}) {
    super(message, options);
  }
}
