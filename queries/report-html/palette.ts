// Series colours: Tableau 10, chosen for telling lines apart on screen and in grey print; after ten the
// colours repeat and the chart draws the repeat dashed.
export const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'] as const;

export const seriesColor = (i: number): string => PALETTE[i % PALETTE.length] as string;
/** Whether series `i` repeats an earlier colour and must be told apart by its dash. */
export const seriesRepeats = (i: number): boolean => i >= PALETTE.length;

/** Colours with a meaning, the same in every chart and table. */
export const MEANING = {
  total: '#222222',
  wait: '#4e79a7',
  timeout: '#f28e2b',
  deadlock: '#d62728',
  other: '#9c9c9c',
} as const;
