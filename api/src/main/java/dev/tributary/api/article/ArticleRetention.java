package dev.tributary.api.article;

import dev.tributary.api.retention.RetentionJob;
import dev.tributary.api.retention.RetentionSettings;
import dev.tributary.crawler.FullArticles;
import java.time.Duration;
import java.util.function.LongConsumer;
import org.springframework.stereotype.Component;

/**
 * Removes kept full articles (and remembered failures) older than {@code tributary.articles.keep},
 * in batches: the cache of pages stays bounded by what readers opened lately, and an old article
 * is fetched afresh if someone opens it again.
 */
@Component
class ArticleRetention implements RetentionJob {

    private final FullArticles articles;
    private final RetentionSettings settings;

    ArticleRetention(FullArticles articles, RetentionSettings settings) {
        this.articles = articles;
        this.settings = settings;
    }

    @Override
    public String name() {
        return "article-cache";
    }

    @Override
    public Duration every() {
        return Duration.ofHours(1);
    }

    @Override
    public long sweep(LongConsumer removed) {
        long total = 0;
        int batch;
        do {
            batch = articles.expire(settings.batchSize());
            removed.accept(batch);
            total += batch;
        } while (batch == settings.batchSize());
        return total;
    }
}
