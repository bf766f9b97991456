package dev.tributary.crawler;

import dev.tributary.crawler.testing.CrawlerTestApplication;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * One Spring context for the crawler's integration tests (cached): embedded MariaDB and Redis,
 * no background crawl (tests refresh feeds themselves through {@link Crawl}), loopback allowed
 * so the tests' own feed servers can be crawled, no politeness delay (none grown after errors
 * either) and no pause of a whole host after a Retry-After (tests fetch many feeds of one local
 * server in a row), short timeouts (pages for articles too), and a
 * public url so WebSub subscriptions are made.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = {CrawlerTestApplication.class, Crawl.class}, properties = {
        "tributary.crawler.concurrency=0",
        "tributary.crawler.allow-private=127.0.0.0/8",
        "tributary.crawler.per-host-delay=0s",
        "tributary.crawler.per-host-concurrency=16",
        "tributary.crawler.politeness.max-pause=0s",
        "tributary.crawler.politeness.max-delay=0s",
        "tributary.crawler.connect-timeout=1s",
        "tributary.crawler.timeout=3s",
        "tributary.articles.timeout=2s",
        "tributary.crawler.lease-ttl=10s",
        "tributary.crawler.jitter=0",
        "tributary.public-url=https://tributary.example",
        "tributary.fanout.workers=0",
        "tributary.storage.cleaner.enabled=false"})
@interface WithEmbeddedCrawler {
}
