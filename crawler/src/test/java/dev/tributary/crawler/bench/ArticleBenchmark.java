package dev.tributary.crawler.bench;

import dev.tributary.crawler.Article;
import dev.tributary.crawler.FullArticles;
import dev.tributary.crawler.testing.CrawlerTestApplication;
import dev.tributary.crawler.testing.FeedServer;
import dev.tributary.pubsub.bench.Bench;
import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Full articles: a reader's {@code FullArticles.article} when the article is kept (one MySQL row
 * read) against the first reader's, which fetches the page from a local server, extracts it with
 * Readability4J, sanitises, cuts and keeps it. Pages are realistic blog posts (~60 KB: navigation,
 * sidebar, 30 paragraphs with links and images, comments, footer). One reader at a time, so the
 * figures are latencies; {@code --pages} per round, {@code --rounds} rounds, medians over rounds.
 */
public final class ArticleBenchmark {

    private ArticleBenchmark() {
    }

    public static void main(String[] argv) throws Exception {
        Bench.Args args = new Bench.Args(argv);
        int pages = args.integer("pages", 200);
        int rounds = args.integer("rounds", 3);
        try (FeedServer site = FeedServer.start();
                ConfigurableApplicationContext context = Bench.start(CrawlerTestApplication.class, args,
                        "tributary.crawler.concurrency=0", "tributary.crawler.allow-private=127.0.0.0/8",
                        "tributary.crawler.per-host-delay=0s", "tributary.crawler.politeness.min-delay=0s",
                        "tributary.fanout.workers=0", "tributary.storage.cleaner.enabled=false")) {
            FullArticles articles = context.getBean(FullArticles.class);
            System.out.println(Bench.format("article benchmark: %,d pages of %,d bytes a round, %d rounds, %d cores",
                    pages, page(0).length(), rounds, Runtime.getRuntime().availableProcessors()));
            Bench.Series fetched = new Bench.Series("first reader: fetch, extract, keep (ms)");
            Bench.Series fetchedP99 = new Bench.Series("first reader p99 (ms)");
            Bench.Series kept = new Bench.Series("later reader: kept article (ms)");
            Bench.Series keptP99 = new Bench.Series("later reader p99 (ms)");
            long item = System.currentTimeMillis() * 1000;
            for (int round = 0; round <= rounds; round++) {
                boolean measured = round > 0; // round 0 warms the JIT
                long[] first = new long[pages];
                long[] later = new long[pages];
                for (int i = 0; i < pages; i++) {
                    String path = "/r" + round + "/post/" + i;
                    site.feed(path, page(i), "text/html; charset=utf-8", Map.of());
                    long id = ++item;
                    long start = System.nanoTime();
                    Article article = articles.article(id, site.url(path).toString());
                    first[i] = System.nanoTime() - start;
                    start = System.nanoTime();
                    Article again = articles.article(id, site.url(path).toString());
                    later[i] = System.nanoTime() - start;
                    if (!again.html().equals(article.html()) || !article.html().contains("Paragraph 29")) {
                        throw new IllegalStateException("page " + i + " read wrong");
                    }
                }
                if (site.requests().size() != (round + 1) * pages) {
                    throw new IllegalStateException("a kept article was fetched again");
                }
                fetched.add(measured, Bench.quantileMillis(first, pages, 0.5));
                fetchedP99.add(measured, Bench.quantileMillis(first, pages, 0.99));
                kept.add(measured, Bench.quantileMillis(later, pages, 0.5));
                keptP99.add(measured, Bench.quantileMillis(later, pages, 0.99));
                System.out.println(Bench.format("round %d%s: first reader median %.2f ms, p99 %.2f ms; later reader median %.3f ms, p99 %.3f ms",
                        round, measured ? "" : " (warm-up)", Bench.quantileMillis(first, pages, 0.5), Bench.quantileMillis(first, pages, 0.99),
                        Bench.quantileMillis(later, pages, 0.5), Bench.quantileMillis(later, pages, 0.99)));
            }
            System.out.println();
            System.out.println("| measure | median | min | max |");
            System.out.println("|---|---:|---:|---:|");
            for (Bench.Series series : List.of(fetched, fetchedP99, kept, keptP99)) {
                System.out.println(Bench.format("| %s | %.2f | %.2f | %.2f |", series.name, series.median(), series.min(), series.max()));
            }
            System.out.println(Bench.format("article: %.2f ms vs baseline %.2f ms = %.3f", kept.median(), fetched.median(),
                    kept.median() / fetched.median()));
        }
        System.exit(0);
    }

    /** A blog post as sites serve them: chrome around the article, links and images in it. */
    static String page(int n) {
        StringBuilder page = new StringBuilder("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Post ")
                .append(n).append(" | A Blog</title><link rel='stylesheet' href='/style.css'><script src='/app.js'></script></head><body>")
                .append("<header><nav><ul>");
        for (int i = 0; i < 20; i++) {
            page.append("<li><a href='/section/").append(i).append("'>Section ").append(i).append("</a></li>");
        }
        page.append("</ul></nav></header><main><article class='post'><h1>Post number ").append(n).append("</h1>");
        String[] words = "the river carries every feed downstream where readers gather, sorting news, notes and stories by hand"
                .split(" ");
        for (int p = 0; p < 30; p++) {
            page.append("<p>Paragraph ").append(p).append(". ");
            for (int w = 0; w < 220; w++) {
                page.append(words[(w * 7 + p + n) % words.length]).append(w % 17 == 16 ? ", " : " ");
            }
            page.append("<a href='/notes/").append(n).append('/').append(p).append("'>more</a>.</p>");
            if (p % 6 == 0) {
                page.append("<figure><img src='/img/").append(n).append('-').append(p).append(".jpg' alt='figure'><figcaption>Figure ")
                        .append(p).append("</figcaption></figure>");
            }
        }
        page.append("</article><aside class='sidebar'>");
        for (int i = 0; i < 30; i++) {
            page.append("<div class='widget'><a href='/tag/").append(i).append("'>tag ").append(i).append("</a></div>");
        }
        page.append("</aside><section class='comments'>");
        for (int i = 0; i < 10; i++) {
            page.append("<div class='comment'><b>reader").append(i).append("</b> <p>Nice post!</p></div>");
        }
        return page.append("</section></main><footer>© A Blog. <a href='/privacy'>Privacy</a></footer></body></html>").toString();
    }
}
