-- The T of the operations `report why` lists ({names}) that no configured context rule gave one: the key-operation
-- settings' T (key_operations), else the performance-evaluation export's own T for the operation of the same name in
-- the window, the latest seen (apdex_minute, as apdex.sql takes it).
SELECT n.name AS name, coalesce(any(s.target_s), any(e.export_target_s)) AS target_s
FROM (SELECT arrayJoin({names:Array(String)}) AS name) AS n
LEFT JOIN (SELECT name, target_s FROM key_operations FINAL WHERE name IN {names:Array(String)}) AS s ON s.name = n.name
LEFT JOIN
(
    SELECT operation, nullIf(argMaxIfMerge(export_target_s), 0) AS export_target_s
    FROM apdex_minute
    WHERE operation IN {names:Array(String)} AND minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)}
    GROUP BY operation
) AS e ON e.operation = n.name
GROUP BY n.name
SETTINGS join_use_nulls = 1
