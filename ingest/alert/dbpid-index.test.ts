import test from 'ava';
import { ConnectionIndex } from './connection-index.js';
import { DbpidIndex, describeOneC } from './dbpid-index.js';

const facts = (connect: string, user: string | undefined, context: string | undefined, ts: string) =>
  ({ host: 'srv1', infobase: 'erp', connect_id: connect, session_id: undefined, user, context, event: 'DBPOSTGRS', ts });

test('a dbpid keeps its connection\'s last user and context, fills a missing context from the connection index, and is bounded', (t) => {
  const connections = new ConnectionIndex(10);
  connections.update(ConnectionIndex.key('srv1', 'erp', '19'), 'Иванов', 'Форма.Записать', 'CALL', '1', undefined, undefined);
  const index = new DbpidIndex(2);
  index.update('100', facts('18', 'Петров', 'Документ.Провести', '1'));
  index.update('100', facts('18', undefined, undefined, '2'));
  t.like(index.lookup(100, connections), { user: 'Петров', context: 'Документ.Провести', ts: '2' });
  index.update('200', facts('19', undefined, undefined, '3'));
  t.like(index.lookup(200, connections), { user: 'Иванов', context: 'Форма.Записать', connect_id: '19' });
  index.update('100', facts('25', 'Сидоров', undefined, '4')); // the pid now serves another connection: nothing carried over
  t.like(index.lookup(100, connections), { user: 'Сидоров', context: undefined });
  index.update('300', facts('30', 'X', undefined, '5'));
  t.is(index.size, 2);
  t.is(index.lookup(200, connections), undefined, '200 was the least recently updated');
  t.is(describeOneC(200, undefined), '1C: no TJ event with dbpid=200 seen yet');
  t.is(describeOneC(100, index.lookup(100, connections)), '1C user Сидоров; context ?; infobase erp; connection 25 on srv1 (DBPOSTGRS at 4)');
});
