-- The TJ events that carry a PostgreSQL backend pid (DBPOSTGRS and others with `dbpid`), around a report window:
-- where the PostgreSQL-side reports (pg-lock-waits.sql, pg-blocked-episodes.sql) find the 1C user, connection and
-- context of a waiting or holding backend with an ASOF join on the pid. One parameterized view instead of the same
-- sub-select written four times. The hour on either side catches the 1C call that began before the window (the
-- holder) or ended after it (the waiter's next event).
CREATE VIEW IF NOT EXISTS tj_dbpid_events AS
SELECT dbpid, ts, infobase, user, connect_id, context_first
FROM tj_events
WHERE dbpid != 0 AND ts >= {from:DateTime64(3)} - INTERVAL 1 HOUR AND ts < {to:DateTime64(3)} + INTERVAL 1 HOUR;
