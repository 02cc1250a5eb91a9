import test from 'ava';
import { ConnectionIndex } from './connection-index.js';

test('the index keeps the last known user and context and forgets the least recently seen connection', (t) => {
  const index = new ConnectionIndex(2);
  index.update('a', 'Петров', 'Документ.Записать', 'CALL', '1', undefined, undefined);
  index.update('b', 'Иванов', undefined, 'CALL', '2', undefined, undefined);
  index.update('a', undefined, undefined, 'TLOCK', '3', 'Reference10.REFLOCK', 3);
  index.update('c', 'Сидоров', undefined, 'CALL', '4', undefined, undefined);
  t.is(index.size, 2);
  t.is(index.get('b'), undefined, 'b was the least recently updated');
  t.deepEqual(index.get('a'), { user: 'Петров', context: 'Документ.Записать', event: 'TLOCK', ts: '3', regions: 'Reference10.REFLOCK', lock_us: 3 });
});

test('past its bound the index keeps the most recently seen connections, and an alert\'s lookup does not refresh one', (t) => {
  const index = new ConnectionIndex(1000);
  for (let i = 0; i < 5000; i++) {
    index.update(String(i), `u${i}`, undefined, 'CALL', String(i), undefined, undefined);
    // Connection 7 keeps working while thousands of others come and go: it stays.
    if (i % 100 === 0) index.update('7', undefined, 'Форма.Записать', 'CALL', String(i), undefined, undefined);
  }
  t.is(index.size, 1000);
  t.like(index.get('7'), { user: 'u7', context: 'Форма.Записать', ts: '4900' });
  t.is(index.get('4000'), undefined, 'among the least recently seen');
  t.like(index.get('4999'), { user: 'u4999' });
  // 4001 is the least recent now; looking it up for an alert must not save it from the next new connection.
  t.like(index.get('4001'), { user: 'u4001' });
  index.update('new', 'n', undefined, 'CALL', '5000', undefined, undefined);
  t.is(index.get('4001'), undefined);
  t.like(index.get('4002'), { user: 'u4002' });
});
