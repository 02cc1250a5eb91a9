// Metrics plus gauges computed elsewhere (file lag, partition lag): one /metrics text for the daemon.
import { Metrics } from './metrics.js';

export class LiveMetrics extends Metrics {
  readonly #extra: Array<() => string> = [];

  /** Appends a renderer's Prometheus text (it must print its own HELP/TYPE lines). */
  add(render: () => string): void {
    this.#extra.push(render);
  }

  override render(): string {
    return super.render() + this.#extra.map((r) => r()).join('');
  }
}
