// A small load-test export with chosen run times around T, 4T and the 10 ms bucket edges, whose APDEX is
// worked out by hand in test/apdex-report.test.ts. Three key operations of priorities 1–3.
import type { SimKeyOperation } from './apdex-export.js';

/** 2026-11-30 10:00:00 UTC; measurements follow every 20 s, so they spread over several minutes. */
export const FIXTURE_START_MS = Date.UTC(2026, 10, 30, 10, 0, 0);

function spaced(values: number[], from: number, users: string[]): SimKeyOperation['measurements'] {
  return values.map((value, i) => ({
    value, startMs: FIXTURE_START_MS + (from + i) * 20_000, userName: users[i % users.length] as string,
    sessionNumber: 100 + i, weight: 1 + (i % 3), runningError: false,
  }));
}

export const FIXTURE_OPERATIONS: SimKeyOperation[] = [
  {
    uid: '6f1a2b3c-0000-4000-8000-000000000001', name: 'Проведение документа «Заказ клиента»', nameFull: 'ПроведениеДокументаЗаказКлиента',
    comment: 'строк: 10', priority: 1, targetValue: 1, long: false,
    // T = 1: S = 0.2, 0.5, 1.0; A = 1.005, 2.5, 4.0; F = 4.001, 7.
    measurements: spaced([0.2, 0.5, 1.0, 1.005, 2.5, 4.0, 4.001, 7], 0, ['Иванов', 'Петров & Co']),
  },
  {
    uid: '6f1a2b3c-0000-4000-8000-000000000002', name: 'Запись справочника <Номенклатура>', nameFull: 'ЗаписьСправочникаНоменклатура',
    priority: 2, targetValue: 0.5,
    // T = 0.5: S = 0.1, 0.3, 0.5; A = 0.6; F = 2.1.
    measurements: spaced([0.1, 0.3, 0.5, 0.6, 2.1], 8, ['Сидоров']),
  },
  {
    uid: '6f1a2b3c-0000-4000-8000-000000000003', name: 'Формирование отчета "Остатки"', nameFull: 'ФормированиеОтчетаОстатки',
    priority: 3, targetValue: 3, long: true,
    // T = 3: all four satisfied (2.99 and exactly 3 included).
    measurements: spaced([1, 2, 2.99, 3], 13, ['Иванов']),
  },
];

/** One more measurement an hour later, outside the report window of the test: it must not count. */
export const FIXTURE_LATE: SimKeyOperation = {
  ...(FIXTURE_OPERATIONS[0] as SimKeyOperation),
  measurements: [{ value: 10, startMs: FIXTURE_START_MS + 3_600_000, userName: 'Иванов', sessionNumber: 999 }],
};
