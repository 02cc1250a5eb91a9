// clickhouse-go v2 over HTTP (the driver of Grafana's ClickHouse data source) at its defaults against perfpipe's
// ClickHouse HTTP interface. Runs the checks every client runs (test/support/clickhouse-clients.ts) and prints one
// JSON object for test/clickhouse-client-go.test.ts.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
)

func main() {
	ctx := context.Background()
	conn, err := clickhouse.Open(&clickhouse.Options{
		Protocol: clickhouse.HTTP,
		Addr:     []string{os.Getenv("CH_HOST") + ":" + os.Getenv("CH_PORT")},
		Auth:     clickhouse.Auth{Username: os.Getenv("CH_USER"), Password: os.Getenv("CH_PASSWORD")},
	})
	check(err)
	out := map[string]any{}
	v, err := conn.ServerVersion()
	check(err)
	out["server"] = v.String()

	// The report's SQL with {from:DateTime64(6)} and {to:DateTime64(6)}, bound by the server.
	pctx := clickhouse.Context(ctx, clickhouse.WithParameters(clickhouse.Parameters{"from": os.Getenv("WINDOW_FROM"), "to": os.Getenv("WINDOW_TO")}))
	rows, err := conn.Query(pctx, os.Getenv("REPORT_SQL"))
	check(err)
	report := []map[string]any{}
	for rows.Next() {
		var (
			event                   string
			n                       uint64
			avg, p95, maxMs         float64
			processes               uint64
		)
		check(rows.Scan(&event, &n, &avg, &p95, &maxMs, &processes))
		report = append(report, map[string]any{"event": event, "n": n})
	}
	check(rows.Err())
	sort.Slice(report, func(i, j int) bool { return report[i]["event"].(string) < report[j]["event"].(string) })
	out["report"] = report

	rows, err = conn.Query(ctx, os.Getenv("ADHOC_SQL"))
	check(err)
	types := []string{}
	for _, ct := range rows.ColumnTypes() {
		types = append(types, ct.DatabaseTypeName())
	}
	out["types"] = types
	adhoc := []map[string]any{}
	for rows.Next() {
		var (
			ts          time.Time
			event, user string
			regions     []string
			props       map[string]string
			trans       *uint32
			waits       []uint64
		)
		check(rows.Scan(&ts, &event, &user, &regions, &props, &trans, &waits))
		w := []string{}
		for _, x := range waits {
			w = append(w, strconv.FormatUint(x, 10))
		}
		var t any
		if trans != nil {
			t = *trans
		}
		adhoc = append(adhoc, map[string]any{"ts": ts.UTC().Format("2006-01-02 15:04:05.000000"), "event": event, "user": user, "regions": regions, "props": props, "trans": t, "wait_connections": w})
	}
	check(rows.Err())
	out["adhoc"] = adhoc

	if _, err := conn.Query(ctx, os.Getenv("FAILING_SQL")); err != nil {
		m := regexp.MustCompile(`code: (\d+)|Code: (\d+)`).FindStringSubmatch(err.Error())
		code := 0
		if m != nil {
			s := m[1]
			if s == "" {
				s = m[2]
			}
			code, _ = strconv.Atoi(s)
		}
		out["error"] = map[string]any{"code": code}
	} else {
		out["error"] = nil
	}

	rows, err = conn.Query(ctx, os.Getenv("LARGE_SQL"))
	check(err)
	count, sum, last := 0, new(big.Int), ""
	for rows.Next() {
		var n uint64
		var s string
		check(rows.Scan(&n, &s))
		count++
		sum.Add(sum, new(big.Int).SetUint64(n))
		last = s
	}
	check(rows.Err())
	out["large"] = map[string]any{"rows": count, "sum": sum.String(), "last": last}

	b, err := json.Marshal(out)
	check(err)
	fmt.Println(string(b))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
