package dev.tributary.pubsub.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.PublishResult;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.RuleAction;
import dev.tributary.pubsub.RuleDraft;
import dev.tributary.pubsub.RuleField;
import dev.tributary.pubsub.RuleSyntax;
import dev.tributary.pubsub.Rules;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.inbox.InboxParts;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Issue 45's property: for random feeds (random guids, sizes and dates, some items a folder rule
 * drops) and random sequences of publish, subscribe (into a folder or not), unsubscribe, mark
 * read, mark unread, trim, raising the count horizon and promotions lapsing (reads promote a
 * person with 8 entries above the global horizon in these tests), with the small caps of these
 * tests (back-fill 3, inbox 60, 2 unread kept per source), after every step and for every person:
 * <ul>
 * <li>what the unread counts say equals what unread pages list, in total and per source;</li>
 * <li>no item a subscription should hold (the back-fill it got: the newest 3 of the feed's
 *     document when it subscribed, and every item published after) is missing from the inbox,
 *     unless a rule dropped it or trimming took it (and then it was counted as trimmed);</li>
 * <li>a subscription holds nothing older than its back-fill from the feed (no random extras).</li>
 * </ul>
 * The seed is fixed, and printed with any failure.
 */
@WithEmbeddedPubsub
class InboxPropertyTest {

    private static final long SEED = 45L;
    private static final int STEPS = 120;
    private static final int BACKFILL = 3;
    private static final Instant BASE = Instant.parse("2026-10-01T00:00:00Z");

    @Autowired Publisher publisher;
    @Autowired Subscriptions subscriptions;
    @Autowired HomeFeed home;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired InboxParts parts;
    @Autowired Folders folders;
    @Autowired Rules rules;
    @Autowired JdbcClient jdbc;
    @Autowired StringRedisTemplate redis;

    /** A feed as its site has it: its document (newest entries) and the ids its items got. */
    private static final class Feed {
        final long id;
        final List<NewItem> document = new ArrayList<>();
        final Map<String, Long> idByGuid = new HashMap<>();
        final Set<Long> zapped = new HashSet<>();
        List<Long> current = List.of();

        Feed(long id) {
            this.id = id;
        }
    }

    /** One person's subscription as the model follows it. */
    private record Follow(boolean inQuietFolder, Set<Long> expected, long floor) {}

    @Test
    void countsEqualListsAndNothingOfASubscribedFeedGoesMissing() {
        Random random = new Random(SEED);
        List<String> log = new ArrayList<>();
        try {
            run(random, log);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed " + SEED + ", steps:\n" + String.join("\n", log.subList(Math.max(0, log.size() - 15), log.size())), e);
        }
    }

    private void run(Random random, List<String> log) {
        List<Feed> feeds = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Feed feed = new Feed(fixtures.feed());
            feeds.add(feed);
            grow(feed, random, random.nextInt(12));
        }
        List<Long> people = fixtures.people(3);
        Map<Long, Long> quiet = new HashMap<>();
        for (long person : people) {
            long folder = folders.create(person, "Quiet").id();
            quiet.put(person, folder);
            rules.create(person, new RuleDraft(RuleAction.DROP, RuleField.TITLE, RuleSyntax.TEXT, "zap", null, folder));
        }
        Map<Long, Map<Long, Follow>> follows = new HashMap<>();
        people.forEach(person -> follows.put(person, new LinkedHashMap<>()));
        Map<Long, Set<Long>> trimmed = new HashMap<>();
        people.forEach(person -> trimmed.put(person, new HashSet<>()));

        int lapses = 0;
        for (int step = 0; step < STEPS; step++) {
            long person = people.get(random.nextInt(people.size()));
            Feed feed = feeds.get(random.nextInt(feeds.size()));
            int op = random.nextInt(100);
            if (op < 25) {
                int added = 1 + random.nextInt(8);
                log.add(step + ": feed " + feed.id + " publishes " + added);
                List<Long> fresh = grow(feed, random, added);
                follows.values().forEach(byFeed -> {
                    Follow follow = byFeed.get(feed.id);
                    if (follow != null) {
                        fresh.stream().filter(id -> !(follow.inQuietFolder() && feed.zapped.contains(id))).forEach(follow.expected()::add);
                    }
                });
            } else if (op < 50) {
                if (follows.get(person).containsKey(feed.id)) {
                    continue;
                }
                boolean filed = random.nextBoolean();
                log.add(step + ": " + person + " subscribes to " + feed.id + (filed ? " into Quiet" : ""));
                // What a subscriber gets at once: the newest 3 of the document, less what the folder's rule drops.
                List<Long> backfill = feed.current.stream().sorted(Comparator.reverseOrder()).limit(BACKFILL).toList();
                Set<Long> expected = new HashSet<>();
                backfill.stream().filter(id -> !(filed && feed.zapped.contains(id))).forEach(expected::add);
                long floor = backfill.isEmpty() ? Long.MAX_VALUE : backfill.getLast();
                boolean had = !fixtures.inbox(person).isEmpty() && held(person, feed.id);
                if (random.nextBoolean()) {
                    subscriptions.subscribe(person, feed.id, null, filed ? List.of(quiet.get(person)) : null);
                } else {
                    subscriptions.subscribeAll(person, List.of(new Subscriptions.Wanted(feed.id, null,
                            filed ? Set.of(quiet.get(person)) : Set.of())));
                }
                follows.get(person).put(feed.id, new Follow(filed, expected, had ? Long.MIN_VALUE : floor));
            } else if (op < 62) {
                if (!follows.get(person).containsKey(feed.id)) {
                    continue;
                }
                log.add(step + ": " + person + " unsubscribes from " + feed.id);
                subscriptions.unsubscribe(person, feed.id);
                follows.get(person).remove(feed.id);
            } else if (op < 77) {
                List<Long> inbox = fixtures.inbox(person);
                if (!inbox.isEmpty()) {
                    long item = inbox.get(random.nextInt(inbox.size()));
                    log.add(step + ": " + person + " marks " + item + " read");
                    home.markRead(person, item);
                }
            } else if (op < 84) {
                // Of a followed feed: an unsubscribed feed's entries are history, read.
                List<Long> inbox = followedEntries(person, follows.get(person).keySet());
                if (!inbox.isEmpty()) {
                    long item = inbox.get(random.nextInt(inbox.size()));
                    log.add(step + ": " + person + " marks " + item + " unread");
                    home.markUnread(person, item);
                }
            } else if (op < 89) {
                // Behind some published item (or all of them): later batches of items up to it move
                // counters, reads fold the entries up to it, and batches still waiting may be either.
                List<Long> published = feeds.stream().flatMap(f -> f.idByGuid.values().stream()).sorted().toList();
                if (!published.isEmpty()) {
                    long to = published.get(random.nextInt(published.size()));
                    log.add(step + ": the count horizon rises to " + to);
                    parts.raiseCountHorizonTo(to);
                }
            } else if (op < 97) {
                // As a promotion left without reads for its length: batches from now on pass the person by.
                String promotions = InboxParts.promotedKey(person);
                if (redis.opsForZSet().score(promotions, Long.toString(person)) != null) {
                    lapses++;
                    log.add(step + ": " + person + "'s promotion lapses");
                    redis.opsForZSet().add(promotions, Long.toString(person), 1);
                }
            } else {
                log.add(step + ": trim " + person);
                Set<Long> before = new HashSet<>(fixtures.inbox(person));
                parts.trim(person);
                before.removeAll(fixtures.inbox(person));
                trimmed.get(person).addAll(before);
            }
            // Fan-out runs now or later: a subscription may come while a publish's deliveries still wait.
            boolean drained = random.nextInt(3) == 0;
            if (drained) {
                fanout.drain();
            }
            for (long reader : people) {
                check(reader, follows.get(reader), trimmed.get(reader), drained);
            }
            // The promotions those reads asked for, made before the next step (the sequence stays the seed's).
            parts.promotionsSettled();
        }
        assertThat(lapses).as("reads promoted someone whose promotion then lapsed").isPositive();
    }

    /** Adds entries to the feed's document (random guids and dates, some titled to be dropped) and publishes it whole. */
    private List<Long> grow(Feed feed, Random random, int count) {
        List<NewItem> added = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String guid = (random.nextInt(4) == 0 ? "zap-" : "ok-") + UUID.randomUUID();
            added.add(new NewItem(guid, "title " + guid, "<p>" + guid + "</p>", "https://example.test/" + guid, "someone",
                    MediaType.TEXT, List.of(), List.of(), BASE.plusSeconds(random.nextInt(1_000_000))));
        }
        feed.document.addAll(added);
        PublishResult result = publisher.publishDocument(feed.id, feed.document, List.of());
        feed.current = result.carried();
        List<Long> fresh = result.created();
        // Which new id is which entry: the publisher stores new entries oldest first.
        List<NewItem> byDate = new ArrayList<>(added);
        byDate.sort(Comparator.comparing(NewItem::publishedAt));
        for (int i = 0; i < fresh.size(); i++) {
            feed.idByGuid.put(byDate.get(i).guid(), fresh.get(i));
            if (byDate.get(i).guid().startsWith("zap-")) {
                feed.zapped.add(fresh.get(i));
            }
        }
        return fresh;
    }

    private List<Long> followedEntries(long person, Set<Long> sourceIds) {
        if (sourceIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT item_id FROM inbox WHERE user_id = :user AND source_id IN (:sources) ORDER BY item_id")
                .param("user", person).param("sources", sourceIds).query(Long.class).list();
    }

    private boolean held(long person, long sourceId) {
        return jdbc.sql("SELECT COUNT(*) FROM inbox WHERE user_id = ? AND source_id = ?").params(person, sourceId)
                .query(Long.class).single() > 0;
    }

    private void check(long person, Map<Long, Follow> follows, Set<Long> trimmed, boolean drained) {
        Unread unread = home.unread(person);
        List<TimelineEntry> listed = new ArrayList<>();
        TimelineQuery query = new TimelineQuery(null, null, null, TimelineQuery.MAX_LIMIT, null, null, null, true);
        while (true) {
            List<TimelineEntry> page = home.page(person, query);
            listed.addAll(page);
            if (page.size() < TimelineQuery.MAX_LIMIT) {
                break;
            }
            query = query.olderThan(page.getLast().id());
        }
        Map<Long, Long> listedBySource = new HashMap<>();
        listed.forEach(entry -> listedBySource.merge(entry.item().body().sourceId(), 1L, Long::sum));
        assertThat(unread.total()).as("person %s: unread total = unread listed", person).isEqualTo(listed.size());
        assertThat(unread.bySource()).as("person %s: unread by source = unread listed by source", person).isEqualTo(listedBySource);
        assertThat(unread).as("person %s: counts = the inbox", person).isEqualTo(fixtures.truth(person));
        // The API names only followed sources in by_source: every unread entry must be of one.
        assertThat(unread.bySource().keySet()).as("person %s: unread only of followed sources", person).isSubsetOf(follows.keySet());
        if (!drained) {
            return;
        }

        Set<Long> inbox = new HashSet<>(fixtures.inbox(person));
        for (Map.Entry<Long, Follow> follow : follows.entrySet()) {
            Set<Long> missing = new HashSet<>(follow.getValue().expected());
            missing.removeAll(inbox);
            missing.removeAll(trimmed);
            assertThat(missing).as("person %s, feed %s: items missing from the inbox", person, follow.getKey()).isEmpty();
            Set<Long> ofFeed = new HashSet<>(jdbc.sql("SELECT item_id FROM inbox WHERE user_id = ? AND source_id = ?")
                    .params(person, follow.getKey()).query(Long.class).list());
            long floor = follow.getValue().floor();
            assertThat(ofFeed.stream().filter(id -> id < floor && !follow.getValue().expected().contains(id)).toList())
                    .as("person %s, feed %s: entries older than the back-fill", person, follow.getKey()).isEmpty();
        }
    }
}
