import test from 'ava';
import { lockConflict, type LockConflict } from './lock-conflict.js';
import { parseLockItem, parseLockItems } from './lock-items.js';

const item = (text: string) => {
  const i = parseLockItem(text);
  if (i === null) throw new Error(`not an item: ${text}`);
  return i;
};

test('Locks values split at commas outside quotes and brackets, with ranges and open ends', (t) => {
  const items = parseLockItems('InfoRg20642.DIMS Shared Fld20643="а, б" Period=[T"20230901000000":+],Reference10.REFLOCK Exclusive ID=10:9d31,AccumRg16.DIMS Exclusive');
  t.deepEqual(items.map((i) => [i.space, i.mode, i.text, [...i.fields]]), [
    ['InfoRg20642.DIMS', 'Shared', 'Fld20643="а, б" Period=[T"20230901000000":+]', [
      ['Fld20643', { kind: 'value', value: '"а, б"' }], ['Period', { kind: 'range', lo: 'T"20230901000000"', hi: null }],
    ]],
    ['Reference10.REFLOCK', 'Exclusive', 'ID=10:9d31', [['ID', { kind: 'value', value: '10:9d31' }]]],
    ['AccumRg16.DIMS', 'Exclusive', '', []],
  ]);
});

test('a quoted value keeps its doubled quotes, spaces and commas as one value', (t) => {
  const [i] = parseLockItems('InfoRg1.DIMS Exclusive Fld2="ООО ""Ромашка"", склад 1" Fld3=0');
  t.deepEqual([...(i?.fields ?? [])], [['Fld2', { kind: 'value', value: '"ООО ""Ромашка"", склад 1"' }], ['Fld3', { kind: 'value', value: '0' }]]);
});

// held, requested, escalating → class (null = no conflict). Expected values follow §5.4 step 4 by hand.
const CASES: Array<[string, string, boolean, LockConflict | null]> = [
  ['R.REFLOCK Exclusive ID=10:aa', 'R.REFLOCK Exclusive ID=10:aa', false, 'exact'],
  ['R.REFLOCK Shared ID=10:aa', 'R.REFLOCK Exclusive ID=10:aa', false, 'exact'],
  ['R.REFLOCK Shared ID=10:aa', 'R.REFLOCK Shared ID=10:aa', false, null],
  ['R.REFLOCK Exclusive ID=10:aa', 'R.REFLOCK Exclusive ID=10:bb', false, null],
  ['R.REFLOCK Exclusive ID=10:aa', 'S.REFLOCK Exclusive ID=10:aa', false, null],
  ['A.DIMS Exclusive', 'A.DIMS Shared Fld1=5', false, 'escalation'],
  ['A.DIMS Exclusive Fld1=7', 'A.DIMS Shared Fld1=5', true, 'escalation'],
  ['A.DIMS Exclusive Fld1=5 Fld2="x"', 'A.DIMS Exclusive Fld1=5', false, 'overlap'],
  ['A.DIMS Exclusive Fld1=5 Fld2="x"', 'A.DIMS Exclusive Fld1=5 Fld2="y"', false, null],
  ['A.DIMS Exclusive Period=[T"20260201000000":+]', 'A.DIMS Exclusive Period=T"20260301000000"', false, 'overlap'],
  ['A.DIMS Exclusive Period=[T"20260401000000":+]', 'A.DIMS Exclusive Period=T"20260301000000"', false, null],
  ['A.DIMS Exclusive Fld1=[3:9]', 'A.DIMS Exclusive Fld1=[10:12]', false, null],
  ['A.DIMS Exclusive Fld1=[3:10]', 'A.DIMS Exclusive Fld1=[10:12]', false, 'overlap'],
  ['A.DIMS Exclusive Fld1=9', 'A.DIMS Exclusive Fld1=10', false, null],
];
for (const [held, requested, escalating, expected] of CASES) {
  test(`held "${held}" against requested "${requested}"${escalating ? ' (escalating)' : ''} is ${expected ?? 'no conflict'}`, (t) => {
    t.is(lockConflict(item(held), item(requested), escalating), expected);
  });
}
