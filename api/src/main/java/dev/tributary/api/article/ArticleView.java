package dev.tributary.api.article;

import dev.tributary.crawler.Article;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * An item's full article on the wire.
 *
 * @param itemId the item's id (a decimal string)
 * @param url the page the article was read from, after redirects
 * @param title the page's title, null if it has none
 * @param byline who wrote the article, as the page says (plain text), null if it does not
 * @param content sanitised HTML, as {@code summary} is
 * @param truncated whether the article was longer than the server keeps, and cut
 * @param fetchedAt when the page was fetched (every reader of the item gets that one copy)
 */
record ArticleView(String itemId, String url, @Nullable String title, @Nullable String byline, String content, boolean truncated,
        Instant fetchedAt) {

    static ArticleView of(Article article) {
        return new ArticleView(Long.toString(article.itemId()), article.url(), article.title(), article.byline(), article.html(),
                article.truncated(), article.fetchedAt());
    }
}
