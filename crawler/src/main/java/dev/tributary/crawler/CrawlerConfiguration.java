package dev.tributary.crawler;

import dev.tributary.crawler.article.ArticleQueue;
import dev.tributary.crawler.fetch.FeedFetcher;
import dev.tributary.crawler.fetch.FetchFailure;
import dev.tributary.crawler.fetch.FetchLimits;
import dev.tributary.crawler.fetch.FetchResult;
import dev.tributary.crawler.normalize.EntryNormalizer;
import dev.tributary.crawler.parse.FeedParser;
import dev.tributary.crawler.parse.HtmlFeedLinks;
import dev.tributary.crawler.schedule.FetchSchedule;
import dev.tributary.crawler.schedule.HostGate;
import dev.tributary.crawler.websub.HubClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Random;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the crawler: its settings and the pure parts (fetcher, parser, normaliser, schedule, politeness). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({CrawlerSettings.class, PublicUrlSettings.class, ArticleSettings.class})
public class CrawlerConfiguration {

    @Bean(destroyMethod = "close")
    FeedFetcher feedFetcher(CrawlerSettings settings, ObjectProvider<Clock> clock) {
        FetchLimits limits = new FetchLimits(settings.connectTimeout(), settings.timeout(), settings.maxRedirects(),
                settings.maxBodySize().toBytes(), settings.maxDecompressedSize().toBytes(), settings.userAgent(),
                settings.allowPrivate());
        return new FeedFetcher(limits, clock.getIfAvailable(Clock::systemUTC));
    }

    /** Hub requests go through the fetcher, so the SSRF guard and limits apply to hubs named by strangers' feeds. */
    @Bean
    HubClient hubClient(FeedFetcher fetcher, CrawlerSettings settings) {
        Duration limit = settings.timeout().plusSeconds(10);
        return (hub, form) -> switch (fetcher.postForm(hub, form).block(limit)) {
            case FetchResult result -> new HubClient.Answer(result.status(), "HTTP " + result.status());
            case FetchFailure failure -> new HubClient.Answer(failure.status() == null ? 0 : failure.status(),
                    failure.reason().key() + ": " + failure.detail());
            case null -> new HubClient.Answer(0, "no answer");
        };
    }

    /** New items whose articles are fetched ahead of readers, filled by the ingest and drained by {@link FullArticles}. */
    @Bean
    ArticleQueue articleQueue(ArticleSettings settings) {
        return new ArticleQueue(settings.queue());
    }

    @Bean
    FeedParser feedParser(CrawlerSettings settings) {
        return new FeedParser(settings.maxXmlNodes());
    }

    @Bean
    EntryNormalizer entryNormalizer(CrawlerSettings settings) {
        return new EntryNormalizer(settings.summaryLength());
    }

    @Bean
    HtmlFeedLinks htmlFeedLinks() {
        return new HtmlFeedLinks();
    }

    @Bean
    FetchSchedule fetchSchedule(CrawlerSettings settings) {
        return new FetchSchedule(settings.minInterval(), settings.maxInterval(), settings.errorBackoffCap(),
                settings.jitter(), new Random());
    }

    @Bean
    HostGate hostGate(CrawlerSettings settings) {
        CrawlerSettings.Politeness politeness = settings.politeness();
        HostGate.Rules perHost = new HostGate.Rules(settings.perHostConcurrency(), politeness.maxPerHost(),
                settings.perHostDelay(), politeness.minDelay(), politeness.maxDelay(), politeness.slowFactor(),
                politeness.maxPause());
        // An address has no delay of its own: its names' hosts space their starts.
        HostGate.Rules perAddress = new HostGate.Rules(settings.perAddressConcurrency(), politeness.maxPerAddress(),
                Duration.ZERO, Duration.ZERO, Duration.ZERO, politeness.slowFactor(), politeness.maxPause());
        return new HostGate(perHost, perAddress, politeness.remembered(), politeness.forgetAfter());
    }
}
