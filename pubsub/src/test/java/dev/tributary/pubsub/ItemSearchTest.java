package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import dev.tributary.storage.IndexBackfill;
import dev.tributary.storage.testing.DeferredIndexing;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Search against the embedded MariaDB: the index kept by publishing, the reach rule, ranking, filters and paging. */
@WithEmbeddedPubsub
class ItemSearchTest {

    private static final Instant BASE = Instant.parse("2026-11-01T00:00:00Z");

    @Autowired ItemSearch search;
    @Autowired Publisher publisher;
    @Autowired Groups groups;
    @Autowired Stars stars;
    @Autowired HomeFeed home;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired JdbcClient jdbc;
    @Autowired IndexBackfill backfill;
    @Autowired Items items;
    @Autowired VisibleItems visible;

    private static NewItem item(String guid, String title, @Nullable String summary, int second) {
        return new NewItem(guid, title, summary, null, null, MediaType.TEXT, List.of(), List.of(), BASE.plusSeconds(second));
    }

    private long publish(long feed, NewItem entry) {
        List<Long> created = publisher.publish(feed, List.of(entry)).created();
        fanout.drain();
        return created.getFirst();
    }

    /** Searches once what was published is indexed (item_terms is written just after each publish). */
    private SearchPage searchNow(long person, SearchQuery query) {
        DeferredIndexing.awaitDrained(jdbc);
        return search.search(person, query);
    }

    private List<Long> ids(long person, String text) {
        return ids(person, SearchQuery.of(SearchText.parse(text), 100));
    }

    private List<Long> ids(long person, SearchQuery query) {
        return searchNow(person, query).hits().stream().map(h -> h.item().id()).toList();
    }

    @Test
    void findsChineseAndLatinWordsInTitlesAndSummaries() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long gc = publish(feed, item("gc", "Java垃圾回收调优", "<p>G1 和 ZGC</p>", 1));
        long kv = publish(feed, item("kv", "MemcacheDB, Tokyo Tyrant, Redis performance test", null, 2));
        long other = publish(feed, item("other", "回收站", "<b>垃圾</b>桶", 3));

        assertThat(ids(person, "垃圾回收")).as("回收站 with 垃圾桶 lacks 圾回").containsExactly(gc);
        assertThat(ids(person, "redis")).containsExactly(kv);
        assertThat(ids(person, "REDIS performance")).containsExactly(kv);
        assertThat(ids(person, "zgc")).as("summary words, HTML stripped").containsExactly(gc);
        assertThat(ids(person, "垃圾")).containsExactlyInAnyOrder(gc, other);
        assertThat(ids(person, "redis 垃圾")).as("every term must match").isEmpty();
        assertThat(ids(person, "nothing")).isEmpty();
    }

    @Test
    void titleHitsRankAboveSummaryHitsAndEqualScoresNewestFirst() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long inSummaryOld = publish(feed, item("s1", "notes", "about kafka", 1));
        long inTitle = publish(feed, item("t", "Kafka notes", null, 2));
        long inSummaryNew = publish(feed, item("s2", "more notes", "kafka again", 3));

        List<SearchHit> hits = searchNow(person, SearchQuery.of(SearchText.parse("kafka"), 10)).hits();
        assertThat(hits).extracting(h -> h.item().id()).containsExactly(inTitle, inSummaryNew, inSummaryOld);
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
    }

    @Test
    void reachIsSubscriptionsInboxAndStarsAndNobodyElsesItems() {
        long reader = fixtures.person();
        long stranger = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(reader));
        long old = publish(feed, item("old", "zookeeper election", null, 1));

        assertThat(ids(reader, "zookeeper")).containsExactly(old);
        assertThat(ids(stranger, "zookeeper")).as("not subscribed, not received, not starred").isEmpty();

        fixtures.unsubscribe(feed, reader);
        assertThat(ids(reader, "zookeeper")).as("history stays in the inbox").containsExactly(old);

        stars.star(stranger, old);
        assertThat(ids(stranger, "zookeeper")).as("a starred item").containsExactly(old);
    }

    @Test
    void aClosedGroupsPostsStayItsMembersEvenForAStaleSubscription() {
        long owner = fixtures.person();
        long outsider = fixtures.person();
        Stored<Group> group = groups.create(owner, "Private");
        long post = groups.post(group.id(), owner, item("secret", "secret roadmap", null, 1)).created().getFirst();
        fanout.drain();
        // A subscription the outsider should never hold: the reach rule still keeps the post from them.
        jdbc.sql("INSERT INTO subscriptions (user_id, source_id, id, media_mask, created_at) VALUES (?, ?, ?, 31, NOW())")
                .params(outsider, group.body().sourceId(), fixtures.person()).update();

        assertThat(ids(owner, "roadmap")).containsExactly(post);
        assertThat(ids(outsider, "roadmap")).isEmpty();
    }

    @Test
    void theIndexFollowsUpdatesAndTombstones() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long id = publish(feed, item("u", "first draft", null, 1));
        assertThat(ids(person, "draft")).containsExactly(id);

        publisher.publish(feed, List.of(item("u", "final version", null, 1)));
        assertThat(ids(person, "draft")).as("re-indexed on update").isEmpty();
        assertThat(ids(person, "final")).containsExactly(id);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM item_terms WHERE entity_id = ?").param(id).query(Long.class).single())
                .isEqualTo(3L); // final, version, #m:text

        publisher.tombstone(id);
        assertThat(ids(person, "final")).isEmpty();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM item_terms WHERE entity_id = ?").param(id).query(Long.class).single())
                .isZero();
    }

    @Test
    void itemsStoredBeforeTheIndexAreBackFilled() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long id = publish(feed, item("bf", "kubernetes operators", null, 1));
        DeferredIndexing.awaitDrained(jdbc);
        // As if the item had been stored before item_terms existed: no rows, and the index not ready.
        jdbc.sql("DELETE FROM item_terms WHERE entity_id = ?").param(id).update();
        jdbc.sql("UPDATE entity_indexes SET state = 'backfilling', backfill_cursor = 0, backfill_high_water = NULL"
                + " WHERE name = 'item_terms'").update();
        assertThat(ids(person, "kubernetes")).isEmpty();

        backfill.run(PubsubKinds.ITEM_TERMS);

        assertThat(ids(person, "kubernetes operators")).containsExactly(id);
    }

    @Test
    void filtersByMediaTagSourceAndUnread() {
        long person = fixtures.person();
        long feedA = fixtures.feed();
        long feedB = fixtures.feed();
        fixtures.subscribe(feedA, List.of(person));
        fixtures.subscribe(feedB, List.of(person));
        long text = publish(feedA, item("a1", "flink streaming", null, 1));
        long video = publish(feedA, new NewItem("a2", "flink talk", null, null, null, MediaType.VIDEO, List.of(),
                List.of("Conference"), BASE.plusSeconds(2)));
        long other = publish(feedB, item("b1", "flink again", null, 3));
        SearchText flink = SearchText.parse("flink");

        assertThat(ids(person, new SearchQuery(flink, 10, null, Set.of(MediaType.VIDEO), null, null, false)))
                .containsExactly(video);
        assertThat(ids(person, new SearchQuery(flink, 10, null, Set.of(MediaType.VIDEO, MediaType.TEXT), null, null, false)))
                .containsExactlyInAnyOrder(video, text, other);
        assertThat(ids(person, new SearchQuery(flink, 10, null, null, "conference", null, false))).containsExactly(video);
        assertThat(ids(person, new SearchQuery(flink, 10, null, null, null, Set.of(feedB), false))).containsExactly(other);
        assertThat(ids(person, new SearchQuery(flink, 10, null, null, null, Set.of(), false))).isEmpty();

        home.markRead(person, text);
        assertThat(ids(person, new SearchQuery(flink, 10, null, null, null, null, true))).containsExactlyInAnyOrder(video, other);
    }

    @Test
    void pagesFollowTheCursorWithoutGapsOrRepeats() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        List<Long> all = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            // Every third one has the word in its title too: scores differ as well as ids.
            String title = i % 3 == 0 ? "spark spark" : "notes " + i;
            all.add(publish(feed, item("p" + i, title, "spark " + i, i)));
        }
        List<Long> seen = new ArrayList<>();
        SearchCursor after = null;
        int pages = 0;
        do {
            SearchPage page = searchNow(person, new SearchQuery(SearchText.parse("spark"), 3, after, null, null, null, false));
            page.hits().forEach(h -> seen.add(h.item().id()));
            after = page.next();
            pages++;
        } while (after != null && pages < 10);

        assertThat(pages).isEqualTo(3);
        assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(all);
        assertThat(seen.subList(0, 3)).containsExactly(all.get(6), all.get(3), all.get(0));
    }

    @Test
    void aSubscriptionsMediaFilterKeepsWhatItExcludesOutOfSearch() {
        long filtered = fixtures.person();
        long everything = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, filtered, Set.of(MediaType.VIDEO, MediaType.AUDIO));
        fixtures.subscribe(feed, List.of(everything));
        long text = publish(feed, item("mf-t", "kestrel notes", null, 1));
        long video = publish(feed, new NewItem("mf-v", "kestrel talk", null, null, null, MediaType.VIDEO, List.of(),
                List.of(), BASE.plusSeconds(2)));
        SearchText kestrel = SearchText.parse("kestrel");

        assertThat(ids(filtered, "kestrel")).as("the timeline never showed the text item").containsExactly(video);
        assertThat(ids(filtered, "kestrel talk")).containsExactly(video);
        assertThat(ids(filtered, "kestrel notes")).isEmpty();
        assertThat(ids(filtered, new SearchQuery(kestrel, 10, null, Set.of(MediaType.TEXT), null, null, false)))
                .as("the query's filter cannot widen the subscription's").isEmpty();
        assertThat(ids(filtered, new SearchQuery(kestrel, 10, null, Set.of(MediaType.TEXT, MediaType.VIDEO), null, null, false)))
                .containsExactly(video);
        assertThat(ids(filtered, new SearchQuery(kestrel, 10, null, null, null, Set.of(feed), false))).containsExactly(video);
        assertThat(ids(everything, "kestrel")).containsExactlyInAnyOrder(text, video);
    }

    @Test
    void theWalkOverTheRarestTermStopsAtItsCapAndTheAnswerSaysSo() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        String word = "cap" + System.nanoTime();
        String a = word + "a";
        String b = word + "b";
        // The one item with both words is the oldest; then 40 newer items hold each word alone, so
        // each word has 41 rows and every row but the last fails the conjunction.
        long both = publish(feed, item(word + "-both", a + " " + b, null, 0));
        List<NewItem> alone = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            alone.add(item(word + "-a" + i, a + " only", null, i));
            alone.add(item(word + "-b" + i, b + " only", null, i));
        }
        publisher.publish(feed, alone);
        fanout.drain();
        DeferredIndexing.awaitDrained(jdbc);
        SearchQuery query = SearchQuery.of(SearchText.parse(a + " " + b), 10);

        SearchPage cut = new ItemSearch(jdbc, items, visible, new SearchSettings(40)).search(person, query);
        assertThat(cut.hits()).as("the 41st row is past a cap of 40").isEmpty();
        assertThat(cut.truncated()).isTrue();

        SearchPage whole = new ItemSearch(jdbc, items, visible, new SearchSettings(41)).search(person, query);
        assertThat(whole.hits()).extracting(h -> h.item().id()).containsExactly(both);
        assertThat(whole.truncated()).isFalse();

        SearchPage single = new ItemSearch(jdbc, items, visible, new SearchSettings(40))
                .search(person, SearchQuery.of(SearchText.parse(a), 100));
        assertThat(single.hits()).as("a one-word query is capped too").hasSize(40).extracting(h -> h.item().id())
                .doesNotContain(both);
        assertThat(single.truncated()).isTrue();
        assertThat(search.search(person, query).truncated()).as("the default cap, 20,000").isFalse();
    }

    @Test
    void findsAThaiWordInsideAPhraseWrittenWithoutSpaces() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long rice = publish(feed, item("th-rice", "ฉันชอบกินข้าวมาก", null, 1));
        long other = publish(feed, item("th-other", "ข้าวผัดอร่อย", null, 2));

        assertThat(ids(person, "กินข้าว")).containsExactly(rice);
        assertThat(ids(person, "ข้าว")).containsExactlyInAnyOrder(rice, other);
        assertThat(ids(person, "ข้าวผัด")).containsExactly(other);
    }

    @Test
    void stemsAndFoldedAccentsMeetInItemsAndQueries() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long runs = publish(feed, item("st-runs", "She runs marathons", null, 1));
        long running = publish(feed, item("st-running", "Running shoes", "<p>for the café</p>", 2));
        long cafe = publish(feed, item("st-cafe", "CAFE culture", null, 3));

        assertThat(ids(person, "run")).containsExactlyInAnyOrder(runs, running);
        assertThat(ids(person, "RUNNING")).containsExactlyInAnyOrder(runs, running);
        assertThat(ids(person, "cafe")).containsExactlyInAnyOrder(running, cafe);
        assertThat(ids(person, "cafés")).containsExactlyInAnyOrder(running, cafe);
        assertThat(ids(person, "marathon shoe")).as("every stem must match").isEmpty();
    }

    @Test
    void aPhraseInQuotesMatchesItsWordsAdjacentAndInOrderOnly() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long title = publish(feed, item("ph-1", "A feed reader for Linux", null, 1));
        long summary = publish(feed, item("ph-2", "Tools", "<p>the best <b>feed</b> readers</p>", 2));
        long apart = publish(feed, item("ph-3", "The reader of a feed", null, 3));
        long fields = publish(feed, item("ph-4", "feed", "<p>reader</p>", 4));
        long cjk = publish(feed, item("ph-5", "Java垃圾回收调优", null, 5));
        long cjkApart = publish(feed, item("ph-6", "垃圾 回收", null, 6));

        assertThat(ids(person, "feed reader")).containsExactlyInAnyOrder(title, summary, apart, fields);
        assertThat(ids(person, "\"feed reader\"")).containsExactlyInAnyOrder(title, summary);
        assertThat(ids(person, "“Feed Readers” linux")).containsExactly(title);
        assertThat(ids(person, "\"reader feed\"")).as("order counts").isEmpty();
        assertThat(ids(person, "\"垃圾回收\"")).containsExactly(cjk);
        assertThat(ids(person, "垃圾 回收")).containsExactlyInAnyOrder(cjk, cjkApart);
        assertThat(ids(person, "\"垃圾 回收\"")).as("words of a CJK phrase stand together").containsExactly(cjkApart);
    }

    @Test
    void aPhrasePageChecksABoundedNumberOfCandidatesAndGoesOnByItsCursor() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long match = publish(feed, item("pb-match", "quartz lantern", null, 0));
        List<NewItem> apart = new ArrayList<>();
        for (int i = 1; i <= ItemSearch.PHRASE_CHECKS + 10; i++) {
            apart.add(item("pb-" + i, "lantern then quartz", null, i));
        }
        publisher.publish(feed, apart);
        fanout.drain();

        SearchQuery query = SearchQuery.of(SearchText.parse("\"quartz lantern\""), 10);
        SearchPage first = searchNow(person, query);
        assertThat(first.hits()).as("the newest %d candidates hold both words apart", ItemSearch.PHRASE_CHECKS).isEmpty();
        assertThat(first.next()).isNotNull();
        SearchPage second = search.search(person, new SearchQuery(query.text(), 10, first.next(), null, null, null, false));
        assertThat(second.hits()).extracting(h -> h.item().id()).containsExactly(match);
        assertThat(second.next()).isNull();
    }

    @Test
    void aTrailingStarFindsTheWordsAPrefixStartsAndTheirStems() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long aggregator = publish(feed, item("px-1", "A feed aggregator", null, 1));
        long aggregation = publish(feed, item("px-2", "Aggregation of news", null, 2));
        long aggregates = publish(feed, item("px-3", "It aggregates", "<p>redis</p>", 3));
        publish(feed, item("px-4", "aggrieved", null, 4));
        long running = publish(feed, item("px-5", "running late", null, 5));

        assertThat(ids(person, "aggregat*")).containsExactlyInAnyOrder(aggregator, aggregation, aggregates);
        assertThat(ids(person, "AGGREGAT* redis")).containsExactly(aggregates);
        assertThat(ids(person, "aggregat* feed")).containsExactly(aggregator);
        assertThat(ids(person, "runn*")).as("the stem of the words it starts").containsExactly(running);
        assertThat(ids(person, "zzqqxx*")).as("no indexed word starts with it").isEmpty();
    }

    @Test
    void aPrefixThatTooManyIndexedWordsStartIsRefused() {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        String prefix = "pfx" + Long.toString(System.nanoTime(), 36).replaceAll("[0-9]", "q");
        String words = java.util.stream.IntStream.range(0, SearchText.MAX_PREFIX_TERMS + 1)
                .mapToObj(i -> prefix + i).collect(java.util.stream.Collectors.joining(" "));
        long item = publish(feed, item("broad", words, null, 1));

        assertThat(ids(person, prefix + "1*")).as("%s1 and %s10 .. %s19", prefix, prefix, prefix).containsExactly(item);
        DeferredIndexing.awaitDrained(jdbc);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> search.search(person, SearchQuery.of(SearchText.parse(prefix + "*"), 10)))
                .isInstanceOfSatisfying(InvalidSearchException.class, e -> {
                    assertThat(e.reason()).isEqualTo(InvalidSearchException.Reason.PREFIX_TOO_BROAD);
                    assertThat(e.problem()).contains("type more letters");
                });
    }

    @Test
    void theReanalysisMigrationQueuesStoredItemsAndTheirRowsAreRewritten() throws Exception {
        long person = fixtures.person();
        long feed = fixtures.feed();
        fixtures.subscribe(feed, List.of(person));
        long id = publish(feed, item("old", "Running cafés", null, 1));
        DeferredIndexing.awaitDrained(jdbc);
        // As the index was before the analysis chain: words unstemmed and unfolded.
        jdbc.sql("DELETE FROM item_terms WHERE entity_id = ?").param(id).update();
        for (String old : List.of("running", "cafés", "#m:text")) {
            jdbc.sql("INSERT INTO item_terms (term, item_id, source_id, weight, entity_id) VALUES (?, ?, ?, 4, ?)")
                    .params(old, id, feed, id).update();
        }
        assertThat(ids(person, "run")).isEmpty();

        String migration = new String(getClass().getResourceAsStream(
                "/db/migration/V2026_11_29_03_00__search_terms_reanalysed.sql").readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        String statement = migration.lines().filter(line -> !line.startsWith("--")).collect(java.util.stream.Collectors.joining("\n"));
        jdbc.sql(statement.replace(";", "")).update();

        assertThat(ids(person, "run cafe")).containsExactly(id);
        assertThat(jdbc.sql("SELECT term FROM item_terms WHERE entity_id = ? ORDER BY term").param(id).query(String.class).list())
                .containsExactly("#m:text", "cafe", "run");
    }
}
