package dev.tributary.storage.embedded;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

import org.springframework.core.env.Environment;

/** Opens one connection to the configured external database before anything else does, to fail fast. */
final class ExternalDatabaseCheck {

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private ExternalDatabaseCheck() {
    }

    static void verify(Environment environment) {
        String url = environment.getProperty("spring.datasource.url");
        Properties credentials = new Properties();
        putIfPresent(credentials, "user", environment.getProperty("spring.datasource.username"));
        putIfPresent(credentials, "password", environment.getProperty("spring.datasource.password"));
        credentials.setProperty("connectTimeout", String.valueOf(CONNECT_TIMEOUT_MILLIS));
        try (Connection ignored = DriverManager.getConnection(url, credentials)) {
            // Reachable and the credentials are accepted: the pool and Flyway take it from here.
        } catch (SQLException e) {
            throw new DatabaseUnreachableException(redact(url), e);
        }
    }

    private static void putIfPresent(Properties properties, String key, String value) {
        if (value != null) {
            properties.setProperty(key, value);
        }
    }

    static String redact(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1***").replaceAll("//([^/@:]+):[^/@]*@", "//$1:***@");
    }
}
