-- Top statements of a window (`report sql`, issue #25 item 2): per statement shape (sql_hash, parsers/tj/sql-shape.ts)
-- the count, total and mean time, rows, and share of all DB time inside the window, from the DB events of the TJ
-- (tj_sql_window in queries/ddl/060_tj_sql.sql: whole minutes from the rollup, the edges from tj_events, so the
-- counts equal a count() over tj_events on [from, to)). Also on every row: the window's totals over all statements
-- (count, seconds, distinct shapes). The listed statements' p95 and text come from sql-details.sql, their contexts
-- from sql-contexts.sql: merging every statement's digests here cost more than the rest (bench/report-scale.ts).
SELECT
    toString(sql_hash) AS sql_hash,
    n AS count,
    us AS duration_us,
    round(us / 1e6, 6) AS seconds,
    round(us / n / 1000, 3) AS mean_ms,
    rows,
    rows_affected,
    round(us / total_us, 4) AS share,
    total_n AS total_count,
    round(total_us / 1e6, 6) AS total_seconds,
    shapes AS total_statements
FROM
(
    SELECT
        sql_hash, n, us, rows, rows_affected,
        sum(us) OVER () AS total_us, sum(n) OVER () AS total_n, count() OVER () AS shapes
    FROM
    (
        SELECT sql_hash, sum(n) AS n, sum(duration_us_sum) AS us, sum(rows_sum) AS rows, sum(rows_affected_sum) AS rows_affected
        FROM tj_sql_window(from = {from:DateTime64(6)}, to = {to:DateTime64(6)})
        GROUP BY sql_hash
    )
)
ORDER BY us DESC, sql_hash
LIMIT {limit:UInt32}
