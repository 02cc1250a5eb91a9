// Writes the rendered report beside its final name and renames it into place, so a reader opening the file (or a
// browser reloading it) never sees half a page.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ReportPage } from '../report-page.js';
import { renderReportPage } from './render-page.js';

/** Returns the absolute path written and its size in bytes. */
export function writeReportPage(file: string, page: ReportPage): { path: string; bytes: number } {
  const path = resolve(file);
  const html = renderReportPage(page);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, html);
  renameSync(tmp, path);
  return { path, bytes: Buffer.byteLength(html) };
}
