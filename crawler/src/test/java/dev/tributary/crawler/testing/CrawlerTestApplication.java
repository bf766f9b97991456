package dev.tributary.crawler.testing;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.ComponentScan;

/**
 * Storage, pub/sub and the crawler on the embedded MariaDB and Redis, for integration tests and
 * benchmarks of this module.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@ComponentScan({"dev.tributary.storage", "dev.tributary.pubsub", "dev.tributary.crawler"})
public class CrawlerTestApplication {
}
