// The bounded excerpt an ingest error carries of its input. Apart from the error's schema so that parsers, which
// need only this, do not load zod (0.1 s of every `perfpipe parse`'s start).

export const EXCERPT_LIMIT = 512;

/** Cuts an excerpt to the stored bound, marking the cut. */
export function boundedExcerpt(text: string): string {
  return text.length <= EXCERPT_LIMIT ? text : `${text.slice(0, EXCERPT_LIMIT - 1)}…`;
}
