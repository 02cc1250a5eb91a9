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
