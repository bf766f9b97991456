package dev.tributary.api.article;

import dev.tributary.api.item.ItemAccess;
import dev.tributary.api.ratelimit.ActionRates;
import dev.tributary.api.web.Caller;
import dev.tributary.crawler.FullArticles;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Stored;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * An item's full article, read from its page for feeds that ship only a teaser: the kept copy
 * when there is one (shared by every reader of the item), else fetched now, which counts against
 * the caller's per-minute allowance of fetches. Only items the caller may see (else 404, as a
 * missing one); a page that cannot give an article is a 422 with the reason.
 */
@RestController
class ArticleController {

    private final ItemAccess items;
    private final FullArticles articles;
    private final ActionRates rates;

    ArticleController(ItemAccess items, FullArticles articles, ActionRates rates) {
        this.items = items;
        this.articles = articles;
        this.rates = rates;
    }

    @GetMapping("/api/v1/items/{id}/content")
    ArticleView content(Caller caller, @PathVariable("id") String id) {
        Stored<Item> item = items.get(caller.userId(), id);
        return ArticleView.of(articles.kept(item.id()).orElseGet(() -> {
            rates.take(caller.userId(), ActionRates.Action.ARTICLE_FETCH);
            return articles.article(item.id(), item.body().url());
        }));
    }
}
