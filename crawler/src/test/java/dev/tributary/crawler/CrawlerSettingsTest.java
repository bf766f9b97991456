package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

/** Crawler settings out of range stop the start-up with a message naming the setting. */
class CrawlerSettingsTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({CrawlerSettings.class, PublicUrlSettings.class, ArticleSettings.class})
    static class SettingsOnly {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withUserConfiguration(SettingsOnly.class);

    @ParameterizedTest
    @ValueSource(strings = {"tributary.crawler.concurrency=-1", "tributary.crawler.max-redirects=50",
            "tributary.crawler.jitter=0.9", "tributary.crawler.min-interval=0s", "tributary.crawler.max-interval=1m",
            "tributary.crawler.lease-ttl=5s", "tributary.crawler.error-backoff-cap=1m", "tributary.crawler.timeout=-1s",
            "tributary.crawler.max-decompressed-size=1KB", "tributary.crawler.summary-length=5",
            "tributary.crawler.per-host-concurrency=0", "tributary.crawler.user-agent= ",
            "tributary.crawler.per-address-concurrency=0", "tributary.crawler.retire-after=0s",
            "tributary.crawler.new-share=1.5", "tributary.crawler.resolve-concurrency=0",
            "tributary.crawler.politeness.max-per-host=1", "tributary.crawler.politeness.max-per-address=3",
            "tributary.crawler.politeness.min-delay=5s", "tributary.crawler.politeness.max-delay=100ms",
            "tributary.crawler.politeness.slow-factor=1", "tributary.crawler.politeness.remembered=0",
            "tributary.crawler.politeness.forget-after=0s", "tributary.crawler.politeness.max-pause=1h",
            "tributary.public-url=ftp://example.org", "tributary.public-url=https://example.org/?a=b",
            "tributary.public-url=/relative", "tributary.articles.max-page-size=0B", "tributary.articles.timeout=0s",
            "tributary.articles.max-decompressed-size=1KB", "tributary.articles.max-stored-size=64MB", "tributary.articles.max-stored-size=100B",
            "tributary.articles.keep=-1d", "tributary.articles.retry-after=0s", "tributary.articles.per-person-per-minute=0",
            "tributary.articles.concurrency=0", "tributary.articles.queue=0"})
    void refusesToStartWith(String setting) {
        runner.withPropertyValues(setting).run(context -> {
            assertThat(context).hasFailed();
            StringBuilder messages = new StringBuilder();
            for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append('\n');
            }
            String key = setting.substring(0, setting.indexOf('='));
            String name = key.substring(key.lastIndexOf('.') + 1);
            assertThat(messages.toString()).containsAnyOf(name, toCamel(name));
        });
    }

    @Test
    void hasDefaultsForEverything() {
        runner.run(context -> {
            CrawlerSettings settings = context.getBean(CrawlerSettings.class);
            assertThat(settings.minInterval()).isEqualTo(Duration.ofMinutes(5));
            assertThat(settings.maxInterval()).isEqualTo(Duration.ofHours(24));
            assertThat(settings.maxRedirects()).isEqualTo(5);
            assertThat(settings.allowPrivate()).isEmpty();
            assertThat(settings.userAgent()).contains("Tributary");
            assertThat(settings.retireAfter()).isEqualTo(Duration.ofDays(30));
            assertThat(settings.perAddressConcurrency()).isEqualTo(4);
            assertThat(settings.newShare()).isEqualTo(0.25);
            assertThat(settings.resolveConcurrency()).isEqualTo(16);
            assertThat(settings.politeness().maxPerHost()).isEqualTo(16);
            assertThat(settings.politeness().minDelay()).isZero();
            assertThat(settings.politeness().maxPause()).isEqualTo(Duration.ofMinutes(10));
            assertThat(context.getBean(PublicUrlSettings.class).publicUrl()).isNull();
        });
    }

    @Test
    void theAllowListIsCommaSeparated() {
        runner.withPropertyValues("tributary.crawler.allow-private=127.0.0.0/8, ::1/128", "tributary.public-url=https://t.example/")
                .run(context -> {
                    assertThat(context.getBean(CrawlerSettings.class).allowPrivate()).isEqualTo(List.of("127.0.0.0/8", "::1/128"));
                    assertThat(context.getBean(PublicUrlSettings.class).resolve("/websub/1"))
                            .isEqualTo(URI.create("https://t.example/websub/1"));
                });
    }

    private static String toCamel(String kebab) {
        StringBuilder camel = new StringBuilder();
        for (String part : kebab.split("-")) {
            camel.append(camel.isEmpty() ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
        }
        return camel.toString();
    }
}
