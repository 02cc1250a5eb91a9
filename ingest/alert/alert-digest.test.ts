import test from 'ava';
import { digestAlert } from './alert-digest.js';

// Examples as the alerter wrote them during a `perfpipe demo` run (the alerts table's last example of each group).
test('a 1C deadlock names its victim and the connection the victim waited for, with their users', (t) => {
  t.deepEqual(digestAlert({
    alertname: 'OneCDeadlock', severity: 'critical', events: 1,
    labels: { alertname: 'OneCDeadlock', severity: 'critical', infobase: 'zup_load', lock_space: 'Document30456.REFLOCK' },
    last_example: {
      ts: '2026-12-01T23:28:48.886991Z', victim_connection: '4876', victim_user: 'Кладовщик_03', victim_context: 'ОбщийМодуль.ДлительныеОперации.Модуль.ВыполнитьПроцедуру',
      edges: '4876 waits for 4904 on Document30456.REFLOCK Exclusive ID=30456:bb; 4904 waits for 4899 on Document30456.REFLOCK Exclusive ID=30456:a7; 4899 waits for 4876 on Document30456.REFLOCK Exclusive ID=30456:86',
      holders: 'connection 4904 (user loadtest; context Форма.Вызов; last event DBPOSTGRS at 2026-12-01T23:28:48.668577Z; last lock Document30456.REFLOCK); connection 4899 (user Администратор; context X; last event DBPOSTGRS at 2026-12-01T23:28:47.666316Z)',
    },
  }), {
    alertname: 'OneCDeadlock', severity: 'critical', events: 1, scope: 'zup_load', lockSpace: 'Document30456.REFLOCK',
    victim: 'Кладовщик_03 (connection 4876)', culprit: 'loadtest (connection 4904)',
  });
});

test('a 1C lock timeout names every WaitConnections culprit, unknown ones by connection only', (t) => {
  const d = digestAlert({
    alertname: 'OneCLockTimeout', severity: 'warning', events: 3,
    labels: { infobase: 'erp', lock_space: 'InfoRg20642.DIMS' },
    last_example: {
      victim_connection: '12', victim_user: 'Петрова А.С.', lock_space: 'InfoRg20642.DIMS', culprit_connections: '7,9',
      culprits: 'connection 7 (user Иванов; context Ф; last event CALL at 2026-12-01T00:00:00Z); connection 9 (not seen in the journal yet)',
    },
  });
  t.like(d, { scope: 'erp', lockSpace: 'InfoRg20642.DIMS', victim: 'Петрова А.С. (connection 12)', culprit: 'Иванов (connection 7), connection 9' });
});

test('a PostgreSQL lock timeout names the waiting pid and the holders, with the 1C users the journal gave', (t) => {
  const d = digestAlert({
    alertname: 'PostgresLockTimeout', severity: 'warning', events: 1,
    labels: { database: 'shop', source: 'postgresql' },
    last_example: { waiter_pid: '15937', user: 'app', relation: 'accounts', holder_pids: '15932,15940', waiter_1c_user: 'Петрова', holder_1c_users: 'Иванов, ?' },
  });
  t.like(d, { scope: 'shop', lockSpace: 'accounts', victim: 'pid 15937 (app, 1C user Петрова)', culprit: 'pid 15932, pid 15940 (1C Иванов, ?)' });
});

test('a lock error names its victim and no culprit', (t) => {
  const d = digestAlert({
    alertname: 'OneCLockException', severity: 'warning', events: 1, labels: { infobase: 'erp_load' },
    last_example: { victim_connection: '4949', victim_user: 'DefUser', exception: 'TLockException' },
  });
  t.like(d, { scope: 'erp_load', lockSpace: '', victim: 'DefUser (connection 4949)', culprit: '' });
});
