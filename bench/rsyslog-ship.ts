// The ceiling of raw-line shipping: rsyslog (imfile → omkafka, librdkafka) sends every line of the TJ files as one
// Kafka message, unparsed. Its own rsyslogd runs in the foreground (`-n`) with a config, work directory and pid file
// of its own; the rate is lines (and MB of input) per second from its start until the topic holds every line.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Rsyslog } from './rsyslog-install.js';
import type { TopicCounter } from './kafka-topic-count.js';

export interface ShipFigures { seconds: number; messages: number; timedOut: boolean; /** CPU seconds rsyslogd used (utime + stime). */ cpuS: number }

/** utime + stime of a live process from /proc/PID/stat, in seconds (clock ticks of 1/100 s on Linux). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Physical lines of the files: what rsyslog must deliver, one message each. */
export function countLines(files: string[]): number {
  let n = 0;
  for (const f of files) {
    const buf = readFileSync(f);
    for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) n++;
  }
  return n;
}

function config(r: Rsyslog, work: string, glob: string, brokers: string[], topic: string, codec: string): string {
  return `# Written by bench/rsyslog-ship.ts: read TJ files from the start, ship each line raw to Kafka.
global(workDirectory="${work}" maxMessageSize="1m")
module(load="${r.moduleDir}/imfile.so" mode="inotify")
module(load="${r.moduleDir}/omkafka.so")
template(name="raw" type="string" string="%rawmsg%")
ruleset(name="tj") {
  action(type="omkafka" broker=[${brokers.map((b) => `"${b}"`).join(',')}] topic="${topic}" template="raw"
         partitions.auto="on" topicConfParam=["request.required.acks=-1"]${codec === 'none' ? '' : ` confParam=["compression.codec=${codec}"]`})
}
input(type="imfile" file="${glob}" tag="tj" ruleset="tj" freshStartTail="off" addMetadata="off")
`;
}

/**
 * Runs rsyslogd until the topic holds `lines` messages (or `timeoutMs` passes), then stops it with SIGTERM.
 * imfile reads whole physical lines, so a multi-line TJ event becomes several messages: raw shipping, no framing.
 */
export async function shipWithRsyslog(r: Rsyslog, o: { work: string; glob: string; brokers: string[]; topic: string; lines: number; counter: TopicCounter; timeoutMs?: number; codec?: 'none' | 'lz4' }): Promise<ShipFigures> {
  mkdirSync(o.work, { recursive: true });
  const conf = join(o.work, 'rsyslog.conf');
  const pidFile = join(o.work, 'rsyslogd.pid');
  writeFileSync(conf, config(r, o.work, o.glob, o.brokers, o.topic, o.codec ?? 'none'));
  const check = await new Promise<{ code: number | null; err: string }>((resolve) => {
    const c = spawn(r.binary, ['-N1', '-f', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    c.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    c.on('close', (code) => resolve({ code, err }));
  });
  if (check.code !== 0) throw new Error(`rsyslogd rejects ${conf}: ${check.err.trim()}`);
  const t0 = performance.now();
  const child = spawn(r.binary, ['-n', '-f', conf, '-i', pidFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let messages = 0;
  let timedOut = false;
  let cpuS = Number.NaN;
  try {
    for (;;) {
      messages = await o.counter.count([o.topic]);
      if (messages >= o.lines) { cpuS = cpuSeconds(child.pid); break; }
      if (performance.now() - t0 > (o.timeoutMs ?? 600_000)) { timedOut = true; break; }
      if (child.exitCode !== null) throw new Error(`rsyslogd exited ${child.exitCode}: ${stderr.trim()}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return { seconds: (performance.now() - t0) / 1000, messages, timedOut, cpuS };
}
