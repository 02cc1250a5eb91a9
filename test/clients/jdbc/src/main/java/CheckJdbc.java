// The ClickHouse JDBC driver (com.clickhouse:clickhouse-jdbc, the one DBeaver ships) at its defaults against
// perfpipe's ClickHouse HTTP interface. Runs the checks every client runs (test/support/clickhouse-clients.ts) plus
// what DBeaver's navigator asks DatabaseMetaData, and prints one JSON object for test/clickhouse-client-jdbc.test.ts.
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

public class CheckJdbc {
    public static void main(String[] args) throws Exception {
        Map<String, String> env = System.getenv();
        String url = "jdbc:clickhouse://" + env.get("CH_HOST") + ":" + env.get("CH_PORT") + "/default";
        Properties props = new Properties();
        props.setProperty("user", env.get("CH_USER"));
        props.setProperty("password", env.get("CH_PASSWORD"));
        StringBuilder out = new StringBuilder("{");
        try (Connection c = DriverManager.getConnection(url, props)) {
            out.append("\"driver\":").append(str(c.getMetaData().getDriverName() + " " + c.getMetaData().getDriverVersion()));

            // ClickHouse's {name:Type} parameters have no JDBC API: a JDBC user gives them as server settings,
            // clickhouse_setting_param_<name>, which the driver sends as the URL's param_<name>.
            Properties withParams = new Properties();
            withParams.putAll(props);
            withParams.setProperty("clickhouse_setting_param_from", env.get("WINDOW_FROM"));
            withParams.setProperty("clickhouse_setting_param_to", env.get("WINDOW_TO"));
            try (Connection p = DriverManager.getConnection(url, withParams); Statement s = p.createStatement(); ResultSet rs = s.executeQuery(env.get("REPORT_SQL"))) {
                out.append(",\"report\":").append(report(rs));
            }
            // The same report with JDBC's own ? placeholders, as a PreparedStatement.
            String questionMarks = env.get("REPORT_SQL").replaceAll("\\{(from|to):[^}]+\\}", "?");
            try (PreparedStatement ps = c.prepareStatement(questionMarks)) {
                ps.setString(1, env.get("WINDOW_FROM"));
                ps.setString(2, env.get("WINDOW_TO"));
                try (ResultSet rs = ps.executeQuery()) {
                    out.append(",\"report_prepared\":").append(report(rs));
                }
            }

            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(env.get("ADHOC_SQL"))) {
                ResultSetMetaData md = rs.getMetaData();
                List<String> types = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) types.add(str(md.getColumnTypeName(i)));
                out.append(",\"types\":[").append(String.join(",", types)).append("]");
                List<String> rows = new ArrayList<>();
                while (rs.next()) {
                    Object trans = rs.getObject("trans");
                    Map<String, String> propsMap = new TreeMap<>();
                    Object m = rs.getObject("props");
                    if (m instanceof Map<?, ?> mm) mm.forEach((k, v) -> propsMap.put(String.valueOf(k), String.valueOf(v)));
                    String ts = rs.getObject("ts", java.time.LocalDateTime.class).format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS"));
                    rows.add("{\"ts\":" + str(ts) + ",\"event\":" + str(rs.getString("event")) + ",\"user\":" + str(rs.getString("user"))
                        + ",\"regions\":" + array((Object[]) rs.getArray("regions").getArray()) + ",\"props\":" + map(propsMap)
                        + ",\"trans\":" + (trans == null ? "null" : trans.toString()) + ",\"wait_connections\":" + array((Object[]) rs.getArray("wait_connections").getArray())
                        + ",\"ts_class\":" + str(rs.getObject("ts").getClass().getSimpleName()) + "}");
                }
                out.append(",\"adhoc\":[").append(String.join(",", rows)).append("]");
            }

            try (Statement s = c.createStatement()) {
                s.executeQuery(env.get("FAILING_SQL"));
                out.append(",\"error\":null");
            } catch (SQLException e) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("Code: (\\d+)\\.").matcher(String.valueOf(e.getMessage()));
                out.append(",\"error\":{\"code\":").append(m.find() ? m.group(1) : "null").append("}");
            }

            long rows = 0;
            java.math.BigInteger sum = java.math.BigInteger.ZERO;
            String last = null;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(env.get("LARGE_SQL"))) {
                while (rs.next()) {
                    rows++;
                    sum = sum.add(java.math.BigInteger.valueOf(rs.getLong(1)));
                    last = rs.getString(2);
                }
            }
            out.append(",\"large\":{\"rows\":").append(rows).append(",\"sum\":").append(str(sum.toString())).append(",\"last\":").append(str(last)).append("}");

            // What DBeaver's navigator asks: catalogs and schemas, the tables of a database, a table's columns.
            DatabaseMetaData md = c.getMetaData();
            out.append(",\"schemas\":").append(column(md.getSchemas(), "TABLE_SCHEM"));
            out.append(",\"catalogs\":").append(column(md.getCatalogs(), "TABLE_CAT"));
            out.append(",\"tables\":").append(column(md.getTables(null, "default", "tj%", null), "TABLE_NAME"));
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, "default", "tj_events", null)) {
                while (rs.next()) columns.add("[" + str(rs.getString("COLUMN_NAME")) + "," + str(rs.getString("TYPE_NAME")) + "," + rs.getInt("NULLABLE") + "]");
            }
            out.append(",\"columns\":[").append(String.join(",", columns)).append("]");
        }
        System.out.println(out.append("}"));
    }

    static String report(ResultSet rs) throws SQLException {
        Map<String, Long> byEvent = new TreeMap<>();
        while (rs.next()) byEvent.put(rs.getString("event"), rs.getLong("n"));
        List<String> rows = new ArrayList<>();
        byEvent.forEach((e, n) -> rows.add("{\"event\":" + str(e) + ",\"n\":" + n + "}"));
        return "[" + String.join(",", rows) + "]";
    }

    static String column(ResultSet rs, String name) throws SQLException {
        List<String> values = new ArrayList<>();
        try (rs) {
            while (rs.next()) values.add(str(rs.getString(name)));
        }
        return "[" + String.join(",", values) + "]";
    }

    static String array(Object[] values) {
        List<String> items = new ArrayList<>();
        for (Object v : values) items.add(str(String.valueOf(v)));
        return "[" + String.join(",", items) + "]";
    }

    static String map(Map<String, String> m) {
        List<String> items = new ArrayList<>();
        m.forEach((k, v) -> items.add(str(k) + ":" + str(v)));
        return "{" + String.join(",", items) + "}";
    }

    static String str(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') b.append('\\').append(ch);
            else if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
            else b.append(ch);
        }
        return b.append('"').toString();
    }
}
