package dev.tributary.storage;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import dev.tributary.storage.testing.StorageTestApplication;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * One Spring context for every storage integration test (same classes and properties, so it is
 * cached): the embedded MariaDB, the test kinds and indexes, and the cleaner off so that tests
 * run it themselves.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = {StorageTestApplication.class, TestKinds.class},
        properties = {"tributary.storage.cleaner.enabled=false", "tributary.storage.backfill-batch-size=7"})
@interface WithEmbeddedStorage {
}
