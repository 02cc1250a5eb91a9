-- For the statements `report sql` lists ({hashes}: sql_hash as texts, 64-bit numbers do not survive JSON): their
-- p95 time in the window (a t-digest estimate, merged from the rollups' hourly and per-minute digests and the raw edges:
-- tj_sql_window, queries/ddl/060_tj_sql.sql) and their text and DBMS (tj_sql_text).
SELECT toString(q.sql_hash) AS sql_hash, round(q.p95_us / 1000, 3) AS p95_ms, t.sql AS sql, t.dbms AS dbms
FROM
(
    SELECT sql_hash, quantileTDigestMerge(0.95)(duration_q) AS p95_us
    FROM tj_sql_window(from = {from:DateTime64(6)}, to = {to:DateTime64(6)})
    WHERE sql_hash IN (SELECT arrayJoin(arrayMap(h -> toUInt64(h), {hashes:Array(String)})))
    GROUP BY sql_hash
) AS q
LEFT JOIN
(
    SELECT sql_hash, any(dbms) AS dbms, any(sql) AS sql
    FROM tj_sql_text
    WHERE sql_hash IN (SELECT arrayJoin(arrayMap(h -> toUInt64(h), {hashes:Array(String)})))
    GROUP BY sql_hash
) AS t ON t.sql_hash = q.sql_hash
