// A report window as the parameters of the report SQL ({from:DateTime64(3)}, {to:DateTime64(3)}): what `report`,
// the HTML page, run comparison and the run history pass.

/**
 * The window as report parameters: Unix seconds with 3 decimals, as text. ClickHouse reads a DateTime64 parameter
 * of up to 4 bare digits as something else than Unix seconds (`0` and `1` fail to parse); `0.000` is unambiguous.
 */
export function windowParams(w: { from: number; to: number }): { from: string; to: string } {
  return { from: w.from.toFixed(3), to: w.to.toFixed(3) };
}
