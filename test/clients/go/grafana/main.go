// The Grafana panel check's client (test/grafana-dashboards.test.ts): clickhouse-go v2 over HTTP, the driver of
// Grafana's ClickHouse data source, runs each panel SQL as the data source expanded it and prints its rows as JSON.
// Input on stdin: a JSON array of SQL texts. Output: a JSON array of row sets, each row an object by column name.
// Values are printed as ClickHouse's JSONEachRow prints them at its defaults (26.x: 64-bit integers unquoted), times
// in the column's format.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
)

func main() {
	var queries []string
	check(json.NewDecoder(os.Stdin).Decode(&queries))
	conn, err := clickhouse.Open(&clickhouse.Options{
		Protocol: clickhouse.HTTP,
		Addr:     []string{os.Getenv("CH_HOST") + ":" + os.Getenv("CH_PORT")},
		Auth:     clickhouse.Auth{Username: os.Getenv("CH_USER"), Password: os.Getenv("CH_PASSWORD")},
	})
	check(err)
	out := [][]map[string]any{}
	for _, q := range queries {
		out = append(out, run(conn, q))
	}
	check(json.NewEncoder(os.Stdout).Encode(out))
}

func run(conn clickhouse.Conn, query string) []map[string]any {
	rows, err := conn.Query(context.Background(), query)
	if err != nil {
		fail(fmt.Errorf("%w\n%s", err, query))
	}
	types := rows.ColumnTypes()
	result := []map[string]any{}
	for rows.Next() {
		values := make([]any, len(types))
		for i, ct := range types {
			values[i] = reflect.New(ct.ScanType()).Interface()
		}
		check(rows.Scan(values...))
		row := map[string]any{}
		for i, ct := range types {
			row[ct.Name()] = plain(reflect.ValueOf(values[i]).Elem(), ct.DatabaseTypeName())
		}
		result = append(result, row)
	}
	check(rows.Err())
	return result
}

var precision = regexp.MustCompile(`DateTime64\((\d+)`)

// plain turns a scanned value into what ClickHouse's JSONEachRow prints for it.
func plain(v reflect.Value, dbType string) any {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plain(v.Elem(), dbType)
	case reflect.Int64, reflect.Uint64:
		if v.Kind() == reflect.Int64 {
			return json.Number(strconv.FormatInt(v.Int(), 10))
		}
		return json.Number(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		if v.Kind() == reflect.Float32 {
			return float32(f)
		}
		return f
	case reflect.Slice:
		if v.IsNil() {
			return []any{}
		}
		list := make([]any, v.Len())
		for i := range list {
			list[i] = plain(v.Index(i), dbType)
		}
		return list
	case reflect.Map:
		m := map[string]any{}
		for _, k := range v.MapKeys() {
			m[fmt.Sprint(k.Interface())] = plain(v.MapIndex(k), dbType)
		}
		return m
	}
	switch x := v.Interface().(type) {
	case time.Time:
		if p := precision.FindStringSubmatch(dbType); p != nil {
			digits, _ := strconv.Atoi(p[1])
			if digits == 0 {
				return x.Format(time.DateTime)
			}
			return x.Format(time.DateTime + "." + "000000000"[:digits])
		}
		if regexp.MustCompile(`^(Nullable\()?Date(32)?\)?$`).MatchString(dbType) {
			return x.Format(time.DateOnly)
		}
		return x.Format(time.DateTime)
	case big.Int:
		return x.String()
	}
	return v.Interface()
}

func check(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
