// Headless Chromium for tests that look at a rendered page: `--dump-dom` after the page's scripts ran, and
// `--screenshot`. Each call gets a throwaway profile directory and a hard timeout, so a hung browser fails the
// test instead of stalling it. --no-sandbox: the sandbox cannot start as root, which is how CI runs.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { onPath } from './prerequisites.js';

/** Found on PATH, as scripts/test-env.sh checks for it (Debian's package installs /usr/bin/chromium). */
export const CHROMIUM = onPath('chromium') ?? onPath('chromium-browser');
/** Why the browser tests cannot run here, or null. */
export const MISSING_CHROMIUM = CHROMIUM === null ? 'chromium not on PATH' : null;

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check',
  '--disable-extensions', '--disable-background-networking', '--hide-scrollbars', '--force-device-scale-factor=1', '--mute-audio'];

function chromium(args: string[], timeoutMs: number): Promise<string> {
  if (CHROMIUM === null) return Promise.reject(new Error('chromium is not on PATH (apt-get install chromium)'));
  const profile = mkdtempSync(join(tmpdir(), 'perfpipe-chromium-'));
  return new Promise<string>((resolve, reject) => {
    execFile(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, ...args], { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 << 20, encoding: 'utf8' }, (error, stdout, stderr) => {
      rmSync(profile, { recursive: true, force: true });
      if (error) reject(new Error(`chromium ${args.join(' ')}: ${error.message}\n${stderr.slice(-2000)}`));
      else resolve(stdout);
    });
  });
}

/** The DOM of `file` after load, serialised (the page's scripts have run; 5 s of virtual time for any timers). */
export function dumpDom(file: string, width = 1280, height = 900, timeoutMs = 60_000): Promise<string> {
  return chromium([`--window-size=${width},${height}`, '--virtual-time-budget=5000', '--dump-dom', pathToFileURL(file).href], timeoutMs);
}

/** A PNG of the first `height` CSS pixels of `file` at `width`, one device pixel per CSS pixel. */
export async function screenshot(file: string, png: string, width: number, height: number, timeoutMs = 60_000): Promise<void> {
  await chromium([`--window-size=${width},${height}`, '--virtual-time-budget=5000', `--screenshot=${png}`, pathToFileURL(file).href], timeoutMs);
  if (!existsSync(png)) throw new Error(`chromium wrote no screenshot to ${png}`);
}
