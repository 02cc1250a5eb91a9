// Where the platform puts TJ text: `<location>/<process>_<pid>/<yymmddhh>.log` in server local time (docs/tj-format.md §1),
// and the local wall clock an event's header is written with.

/** Folder of one process: the executable name as the OS reports it (case kept), `_`, the pid. */
export function tjProcessFolder(processName: string, pid: number): string {
  return `${processName}_${pid}`;
}

export interface LocalClock {
  /** `yymmddhh` of the local hour: the file name without `.log`. */
  hour: string;
  minute: number;
  second: number;
  microsecond: number;
}

/**
 * Converts UTC instants (epoch µs) to the zone's wall clock. Intl is slow (~µs per call), so the result for one
 * UTC minute is cached and the seconds added: every IANA offset is a whole number of minutes and transitions
 * happen on minute boundaries, so the minute's local fields are exact for all its seconds.
 */
export function createLocalClock(timeZone: string): (epochUs: number) => LocalClock {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: '2-digit',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  let cachedMinute = Number.NaN;
  let cachedHour = '';
  let cachedLocalMinute = 0;
  return (epochUs) => {
    const epochMinute = Math.floor(epochUs / 60_000_000);
    if (epochMinute !== cachedMinute) {
      const parts: Record<string, string> = {};
      for (const part of format.formatToParts(new Date(epochMinute * 60_000))) parts[part.type] = part.value;
      cachedHour = `${parts.year}${parts.month}${parts.day}${parts.hour}`;
      cachedLocalMinute = Number(parts.minute);
      cachedMinute = epochMinute;
    }
    const withinMinute = epochUs - epochMinute * 60_000_000;
    return {
      hour: cachedHour,
      minute: cachedLocalMinute,
      second: Math.floor(withinMinute / 1_000_000),
      microsecond: withinMinute % 1_000_000,
    };
  };
}

/** `yymmddhh.log` of the hour `date` falls in, as a server in `timeZone` names it. */
export function tjFileName(date: Date, timeZone: string): string {
  return `${createLocalClock(timeZone)(date.getTime() * 1000).hour}.log`;
}
