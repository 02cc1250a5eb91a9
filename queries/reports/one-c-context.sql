-- What the TJ shows of 1C around a window: the platform versions in the rphost start lines (PROC
-- `Txt=1C:Enterprise 8.3 (x86-64) (8.3.25.1374) Working Process started…`, docs/tj-format.md §6) of the week before
-- its end, and the infobases whose server calls ran in it (tj_call_minute).
SELECT
    (SELECT arrayStringConcat(arraySort(groupUniqArray(v)), ', ')
     FROM (SELECT extract(props['Txt'], '\\((\\d+\\.\\d+\\.\\d+\\.\\d+)\\)') AS v FROM tj_events
           WHERE event = 'PROC' AND ts >= {to:DateTime64(3)} - INTERVAL 7 DAY AND ts < {to:DateTime64(3)})
     WHERE v != '') AS platform,
    (SELECT arrayStringConcat(arraySort(groupUniqArray(infobase)), ', ')
     FROM tj_call_minute WHERE minute >= toStartOfMinute({from:DateTime64(3)}) AND minute < {to:DateTime64(3)} AND infobase != '') AS infobases
