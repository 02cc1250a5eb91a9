-- Statement texts for the shapes `report why` names ({hashes}: sql_hash as texts; 64-bit numbers do not survive JSON).
SELECT toString(sql_hash) AS sql_hash, any(sql) AS sql
FROM tj_sql_text
WHERE sql_hash IN (SELECT arrayJoin(arrayMap(h -> toUInt64(h), {hashes:Array(String)})))
GROUP BY sql_hash
