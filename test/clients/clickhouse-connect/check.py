"""clickhouse-connect at its defaults against perfpipe's ClickHouse HTTP interface.

Runs the checks every client runs (test/support/clickhouse-clients.ts) and prints them as one JSON object; the ava
test (test/clickhouse-client-connect.test.ts) compares it with what all clients must read. Settings, queries and
the endpoint come from the environment.
"""
import json
import os
import re

import clickhouse_connect
from clickhouse_connect.driver.exceptions import DatabaseError

env = os.environ
client = clickhouse_connect.get_client(host=env['CH_HOST'], port=int(env['CH_PORT']), username=env['CH_USER'], password=env['CH_PASSWORD'])
out = {'server_version': client.server_version, 'compression': client.compression}

report = client.query(env['REPORT_SQL'], parameters={'from': env['WINDOW_FROM'], 'to': env['WINDOW_TO']})
out['report'] = sorted(({'event': r['event'], 'n': int(r['n'])} for r in report.named_results()), key=lambda r: r['event'])

adhoc = client.query(env['ADHOC_SQL'])
out['types'] = [t.name for t in adhoc.column_types]
out['adhoc'] = [{
    'ts': r['ts'].strftime('%Y-%m-%d %H:%M:%S.%f'),
    'event': r['event'], 'user': r['user'], 'regions': list(r['regions']), 'props': dict(sorted(r['props'].items())),
    'trans': r['trans'], 'wait_connections': [str(w) for w in r['wait_connections']],
} for r in adhoc.named_results()]

df = client.query_df(env['ADHOC_SQL'])
out['pandas'] = {'rows': len(df), 'columns': list(df.columns), 'events': df['event'].tolist(), 'ts_dtype': str(df['ts'].dtype),
                 'trans_nulls': int(df['trans'].isna().sum())}

try:
    client.query(env['FAILING_SQL'])
    out['error'] = None
except DatabaseError as e:
    m = re.search(r'Code: (\d+)\.', str(e))
    out['error'] = {'code': int(m.group(1)) if m else None}

rows = 0
total = 0
last = None
with client.query_row_block_stream(env['LARGE_SQL']) as stream:
    for block in stream:
        for number, s in block:
            rows += 1
            total += number
            last = s
out['large'] = {'rows': rows, 'sum': str(total), 'last': last}

print(json.dumps(out, ensure_ascii=False))
