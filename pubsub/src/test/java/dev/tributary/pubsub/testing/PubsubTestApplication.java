package dev.tributary.pubsub.testing;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.ComponentScan;

/**
 * The storage and pub/sub modules on the embedded MariaDB and Redis, for integration tests and
 * benchmarks of this module and of the modules built on it.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@ComponentScan({"dev.tributary.storage", "dev.tributary.pubsub"})
public class PubsubTestApplication {
}
