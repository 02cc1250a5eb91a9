// Counters, gauges and summaries (sum and count, no quantiles) with labels, rendered in the Prometheus text
// format for `/metrics`. Small on purpose: a handful of series per source and table, no dependency.
// test/metrics-prometheus.test.ts holds every page to `promtool check metrics` and a real scrape.
// Kept hand-written rather than prom-client (issue #15 item 8; bench/library-candidates.ts, 6 counters × 8 label
// sets, 2 shared cores): inc 1.2 M/s here against prom-client 15's 1.7 M/s, render 14,400/s against 8,400/s; both
// cost microseconds beside a segment or a scrape. prom-client renders asynchronously (Registry.metrics()), so every
// caller of render() would await, and value()/total() (read synchronously by commands and tests) have no sync reader.

type Labels = Record<string, string>;

interface Series {
  help: string;
  type: 'counter' | 'gauge' | 'summary';
  /** For a summary, `value` is the sum of the observations and `count` their number. */
  values: Map<string, { labels: Labels; value: number; count: number }>;
}

export class Metrics {
  private readonly series = new Map<string, Series>();

  private get(name: string, help: string, type: Series['type']): Series {
    let s = this.series.get(name);
    if (!s) {
      s = { help, type, values: new Map() };
      this.series.set(name, s);
    }
    return s;
  }

  inc(name: string, help: string, labels: Labels = {}, by = 1): void {
    const s = this.get(name, help, 'counter');
    const key = JSON.stringify(labels);
    const v = s.values.get(key);
    if (v) v.value += by;
    else s.values.set(key, { labels, value: by, count: 0 });
  }

  /**
   * One observation of a summary: rendered as `<name>_sum` and `<name>_count` under `# TYPE <name> summary`, the
   * shape Prometheus expects for a total time and its number of timings (two counters named so fail promtool).
   */
  observe(name: string, help: string, labels: Labels, value: number): void {
    const s = this.get(name, help, 'summary');
    const key = JSON.stringify(labels);
    const v = s.values.get(key);
    if (v) {
      v.value += value;
      v.count += 1;
    } else s.values.set(key, { labels, value, count: 1 });
  }

  set(name: string, help: string, labels: Labels, value: number): void {
    this.get(name, help, 'gauge').values.set(JSON.stringify(labels), { labels, value, count: 0 });
  }

  value(name: string, labels: Labels = {}): number {
    return this.series.get(name)?.values.get(JSON.stringify(labels))?.value ?? 0;
  }

  /** Sum of a series over all label sets. */
  total(name: string): number {
    let sum = 0;
    for (const v of this.series.get(name)?.values.values() ?? []) sum += v.value;
    return sum;
  }

  render(): string {
    const out: string[] = [];
    for (const [name, s] of this.series) {
      out.push(`# HELP ${name} ${s.help}`, `# TYPE ${name} ${s.type}`);
      for (const { labels, value, count } of s.values.values()) {
        const l = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`).join(',');
        const braces = l ? `{${l}}` : '';
        if (s.type === 'summary') out.push(`${name}_sum${braces} ${value}`, `${name}_count${braces} ${count}`);
        else out.push(`${name}${braces} ${value}`);
      }
    }
    return `${out.join('\n')}\n`;
  }
}
