package dev.tributary.storage.testing;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.ComponentScan;

/**
 * The storage module's beans on the embedded MariaDB and Redis, for integration tests of this
 * module and of the modules built on it.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@ComponentScan("dev.tributary.storage")
public class StorageTestApplication {
}
