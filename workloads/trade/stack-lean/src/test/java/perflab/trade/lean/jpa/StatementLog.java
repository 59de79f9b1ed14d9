package perflab.trade.lean.jpa;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.logging.Logger;

/**
 * A data source that notes the SQL of every statement prepared on its connections, whoever prepares it: what the
 * database is asked, whichever data access mode asks.
 */
final class StatementLog implements DataSource {
    private final DataSource target;
    private final List<String> statements = new ArrayList<>();

    StatementLog(DataSource target) {
        this.target = target;
    }

    /** The statements prepared since the last call, in lower case, and forgets them. */
    synchronized List<String> take() {
        List<String> taken = List.copyOf(statements);
        statements.clear();
        return taken;
    }

    private synchronized void note(String sql) {
        statements.add(sql.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").trim());
    }

    @Override
    public Connection getConnection() throws SQLException {
        return recording(target.getConnection());
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return recording(target.getConnection(user, password));
    }

    private Connection recording(Connection connection) {
        InvocationHandler handler = (proxy, method, args) -> {
            if ((method.getName().equals("prepareStatement") || method.getName().equals("prepareCall"))
                    && args != null && args[0] instanceof String sql) {
                note(sql);
            }
            try {
                return method.invoke(connection, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[]{Connection.class}, handler);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return target.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return target.isWrapperFor(type);
    }
}
