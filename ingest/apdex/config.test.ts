import test from 'ava';
import { join } from 'node:path';
import { loadConfigFile, parseConfig } from '../config/config.js';
import { packageRoot } from '../store/package-root.js';
import { keyOperationParams } from '../../queries/reports/key-operation-params.js';

test('an empty config has no key operations, and the report parameters are empty arrays', (t) => {
  const c = parseConfig({});
  t.deepEqual(c.apdex, { operations: [] });
  t.deepEqual(keyOperationParams(c.apdex.operations), {
    op_names: [], op_prefixes: [], op_regexes: [], op_infobases: [], op_targets: [], op_priorities: [], op_min_levels: [],
  });
});

test('TJ operations and export overrides become one parameter array per setting, in config order', (t) => {
  const c = parseConfig({ apdex: { operations: [
    { name: 'Запись', context: 'Форма.Записать : Справочник.Номенклатура', target_s: 0.5, priority: 2, min_apdex: 0.85 },
    { name: 'Проведение', context_regex: '^Форма\\.Провести', infobase: 'erp', target_s: 1.25 },
    { name: 'ПроведениеДокументаЗаказКлиента', target_s: 0.3 },
  ] } });
  t.deepEqual(keyOperationParams(c.apdex.operations), {
    op_names: ['Запись', 'Проведение', 'ПроведениеДокументаЗаказКлиента'],
    op_prefixes: ['Форма.Записать : Справочник.Номенклатура', '', ''],
    op_regexes: ['', '^Форма\\.Провести', ''],
    op_infobases: ['', 'erp', ''],
    op_targets: [0.5, 1.25, 0.3],
    op_priorities: [2, null, null],
    op_min_levels: [0.85, null, null],
  });
});

test('every mistake in the key operations is reported at once with the key to fix', (t) => {
  const error = t.throws(() => parseConfig({ apdex: { operations: [
    { name: 'a', context: 'X', context_regex: 'Y', target_s: 0.5 },
    { name: 'b', context_regex: '(' , target_s: 0.123 },
    { name: 'c', context: 'Z' },
    { name: 'a', infobase: 'erp', priority: 0 },
    { name: 'd' },
    { name: 'e', target_s: 1, min_apdex: 1.5, typo: 1 },
  ] } }, 'p.yaml'));
  t.is(error?.message, [
    'p.yaml is not valid:',
    '  apdex.operations[1].context_regex: is not a valid regular expression',
    '  apdex.operations[1].target_s: expected seconds in whole hundredths (e.g. 0.25), the precision of 1C key-operation targets',
    '  apdex.operations[3].priority: Too small: expected number to be >=1',
    '  apdex.operations[5].min_apdex: Too big: expected number to be <=1',
    '  apdex.operations[5]: unknown key "typo"',
    '  apdex.operations[0].context_regex: set either context or context_regex, not both',
    '  apdex.operations[2].target_s: is required for an operation measured from the TJ ("c")',
    '  apdex.operations[3].infobase: applies only with context or context_regex',
    '  apdex.operations[3].name: "a" is already operations[0]',
    '  apdex.operations[4]: sets nothing; expected context or context_regex, or target_s, priority or min_apdex',
  ].join('\n'));
});

test('the example file parses to its key operations', (t) => {
  const c = loadConfigFile(join(packageRoot(), 'perfpipe.example.yaml'));
  t.deepEqual(c.apdex.operations, [
    { name: 'Запись номенклатуры', context: 'Форма.Записать : Справочник.Номенклатура', target_s: 0.5, priority: 2, min_apdex: 0.85 },
    { name: 'ПроведениеДокументаЗаказКлиента', target_s: 0.8 },
  ]);
});
