package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Filter rules through real fan-out and back-fill: what is dropped is never delivered nor counted,
 * what is marked read is delivered read, what is starred is starred (up to the cap), and unread
 * counts equal a recount from the inbox table afterwards.
 */
@WithEmbeddedPubsub
class RulesTest {

    private static final Instant BASE = Instant.parse("2026-11-01T00:00:00Z");

    @Autowired Rules rules;
    @Autowired Publisher publisher;
    @Autowired Subscriptions subscriptions;
    @Autowired Folders folders;
    @Autowired HomeFeed home;
    @Autowired Stars stars;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired JdbcClient jdbc;
    @Autowired IdGenerator ids;
    @Autowired Transactions tx;
    @Autowired ObjectProvider<java.time.Clock> clock;
    @Autowired DeliveryRules deliveryRules;
    @Autowired RuleMetrics metrics;
    @Autowired RuleSettings budgets;

    /** The costliest rule a person may write: 500 characters, the largest {n}, about 1,500 instructions. */
    private static final String COSTLIEST = "[a-z]{1000}N" + "x".repeat(RuleMatcher.MAX_PATTERN_LENGTH - 12);

    private static NewItem longItem(String guid, int summaryChars) {
        String summary = "<p>" + "lorem ipsum ".repeat(summaryChars / 12) + "</p>";
        return new NewItem(guid, "Title " + guid, summary, "https://example.test/" + guid, "Someone", MediaType.TEXT, List.of(),
                List.of(), BASE.plusSeconds(guid.hashCode() & 0xffff));
    }

    private static NewItem item(String guid, String title, String... tags) {
        return new NewItem(guid, title, "<p>about " + guid + "</p>", "https://example.test/" + guid, "Someone",
                MediaType.TEXT, List.of(), List.of(tags), BASE.plusSeconds(guid.hashCode() & 0xffff));
    }

    /** Publishes and fans out; the created ids in the order given. */
    private List<Long> publish(long feed, NewItem... entries) {
        List<Long> created = publisher.publish(feed, List.of(entries)).created();
        fanout.drain();
        return created;
    }

    private static RuleDraft text(RuleAction action, RuleField field, String pattern) {
        return new RuleDraft(action, field, RuleSyntax.TEXT, pattern, null, null);
    }

    private static RuleDraft scoped(RuleAction action, String pattern, @Nullable Long source, @Nullable Long folder) {
        return new RuleDraft(action, RuleField.TITLE, RuleSyntax.TEXT, pattern, source, folder);
    }

    private long matched(long person, Rule rule) {
        return rules.find(person, rule.id()).orElseThrow().matched();
    }

    private void assertCountsExact(long person) {
        assertThat(home.unread(person)).isEqualTo(fixtures.truth(person));
    }

    @Test
    void aDroppedItemGetsNoInboxEntryAndIsNeverCounted() {
        long feed = fixtures.feed();
        long person = fixtures.person();
        long other = fixtures.person();
        fixtures.subscribe(feed, List.of(person, other));
        Rule drop = rules.create(person, text(RuleAction.DROP, RuleField.TITLE, "SPAM"));

        List<Long> ids = publish(feed, item("d1", "Cheap spam here"), item("d2", "Real news"), item("d3", "spAm again"));

        assertThat(fixtures.inbox(person)).containsExactly(ids.get(1));
        assertThat(fixtures.inbox(other)).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(home.unread(person).total()).isEqualTo(1);
        assertCountsExact(person);
        assertCountsExact(other);
        assertThat(matched(person, drop)).isEqualTo(2);
    }

    @Test
    void aMarkReadItemIsDeliveredReadAndNotCounted() {
        long feed = fixtures.feed();
        long person = fixtures.person();
        fixtures.subscribe(feed, List.of(person));
        Rule read = rules.create(person, text(RuleAction.MARK_READ, RuleField.TAGS, "sponsored"));

        List<Long> ids = publish(feed, item("r1", "Ad", "Sponsored"), item("r2", "Story", "news"));

        assertThat(home.page(person, TimelineQuery.newest(10))).extracting(TimelineEntry::id, TimelineEntry::read)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(ids.get(0), true),
                        org.assertj.core.groups.Tuple.tuple(ids.get(1), false));
        assertThat(home.unread(person).total()).isEqualTo(1);
        assertCountsExact(person);
        assertThat(matched(person, read)).isEqualTo(1);
    }

    @Test
    void aStarRuleStarsWhatItDeliversAndSkipsPastTheStarCap() {
        long feed = fixtures.feed();
        long person = fixtures.person();
        fixtures.subscribe(feed, List.of(person));
        Rule star = rules.create(person, text(RuleAction.STAR, RuleField.ANY, "release"));
        List<Long> first = publish(feed, item("s1", "Release 1.0"), item("s2", "Unrelated"));
        assertThat(stars.starredAmong(person, first)).containsExactly(first.get(0));

        // One star short of the cap: of the next two matching items, one is starred and one skipped.
        jdbc.sql("UPDATE star_counts SET stars = ? WHERE user_id = ?").params(stars.maxPerPerson() - 1, person).update();
        List<Long> next = publish(feed, item("s3", "Release 2.0"), item("s4", "Release 3.0"));

        assertThat(fixtures.inbox(person)).containsAll(next);
        assertThat(stars.starredAmong(person, next)).hasSize(1);
        assertThat(jdbc.sql("SELECT stars FROM star_counts WHERE user_id = ?").param(person).query(Long.class).single())
                .isEqualTo(stars.maxPerPerson());
        assertThat(home.unread(person).total()).isEqualTo(4);
        assertCountsExact(person);
        assertThat(matched(person, star)).isEqualTo(3);
    }

    @Test
    void keepOnlyOfOneSourceDropsThatSourcesOtherItemsAndLeavesOtherSourcesAlone() {
        long java = fixtures.feed();
        long news = fixtures.feed();
        long person = fixtures.person();
        fixtures.subscribe(java, List.of(person));
        fixtures.subscribe(news, List.of(person));
        Rule keep = rules.create(person, scoped(RuleAction.KEEP_ONLY, "jvm", java, null));
        Rule keepToo = rules.create(person, scoped(RuleAction.KEEP_ONLY, "garbage", java, null));

        List<Long> fromJava = publish(java, item("k1", "JVM tuning"), item("k2", "Cooking"), item("k3", "Garbage collection"));
        List<Long> fromNews = publish(news, item("k4", "Cooking"), item("k5", "Weather"));

        assertThat(fixtures.inbox(person)).containsExactlyInAnyOrder(fromJava.get(0), fromJava.get(2), fromNews.get(0),
                fromNews.get(1));
        assertThat(home.unread(person).bySource()).isEqualTo(Map.of(java, 2L, news, 2L));
        assertCountsExact(person);
        assertThat(matched(person, keep)).isEqualTo(1);
        assertThat(matched(person, keepToo)).isEqualTo(1);
    }

    @Test
    void aFolderRuleActsOnTheSourcesFiledInThatFolderOnly() {
        long filed = fixtures.feed();
        long loose = fixtures.feed();
        long person = fixtures.person();
        fixtures.subscribe(filed, List.of(person));
        fixtures.subscribe(loose, List.of(person));
        Folder folder = folders.create(person, "Tech");
        folders.file(person, filed, List.of(folder.id()));
        Rule drop = rules.create(person, scoped(RuleAction.DROP, "rumour", null, folder.id()));

        List<Long> inFolder = publish(filed, item("f1", "Rumour mill"), item("f2", "Facts"));
        List<Long> outside = publish(loose, item("f3", "Rumour elsewhere"));

        assertThat(fixtures.inbox(person)).containsExactlyInAnyOrder(inFolder.get(1), outside.get(0));
        assertCountsExact(person);
        assertThat(matched(person, drop)).isEqualTo(1);

        folders.delete(person, folder.id());
        assertThat(rules.find(person, drop.id())).as("a folder's rules go with it").isEmpty();
    }

    @Test
    void backfillOfANewSubscriptionAppliesTheRules() {
        long feed = fixtures.feed();
        List<Long> ids = publish(feed, item("b1", "Keep me"), item("b2", "Drop me"), item("b3", "Read me"));
        publisher.documentCarried(feed, ids);
        long person = fixtures.person();
        Rule drop = rules.create(person, text(RuleAction.DROP, RuleField.TITLE, "drop"));
        Rule read = rules.create(person, text(RuleAction.MARK_READ, RuleField.TITLE, "read me"));

        subscriptions.subscribe(person, feed, null);

        assertThat(fixtures.inbox(person)).containsExactlyInAnyOrder(ids.get(0), ids.get(2));
        assertThat(home.unread(person).total()).isEqualTo(1);
        assertCountsExact(person);
        assertThat(matched(person, drop)).isEqualTo(1);
        assertThat(matched(person, read)).isEqualTo(1);
    }

    @Test
    void aCatastrophicBacktrackingPatternMatchesInLinearTime() {
        long feed = fixtures.feed();
        long person = fixtures.person();
        fixtures.subscribe(feed, List.of(person));
        Rule drop = rules.create(person, new RuleDraft(RuleAction.DROP, RuleField.TITLE, RuleSyntax.REGEX, "^(a+)+$", null, null));
        String hostile = "a".repeat(50_000) + "b";

        List<Long> ids = publish(feed, item("x1", hostile), item("x2", "a".repeat(50_000)));

        // A backtracking engine would not finish the first title; RE2J matches both at once, correctly.
        assertThat(fixtures.inbox(person)).containsExactly(ids.get(0));
        assertThat(matched(person, drop)).isEqualTo(1);
        assertCountsExact(person);
    }

    @Test
    void aPersonsHundredCostliestRulesStayWithinTheirBudgetAndTheOtherFollowerGetsEverything() {
        long feed = fixtures.feed();
        long heavy = fixtures.person();
        long other = fixtures.person();
        fixtures.subscribe(feed, List.of(heavy, other));
        for (int i = 0; i < rules.limit(); i++) {
            rules.create(heavy, new RuleDraft(RuleAction.DROP, RuleField.ANY, RuleSyntax.REGEX, COSTLIEST, null, null));
        }
        long overrunsBefore = metrics.overruns();
        long inTransactionBefore = metrics.matchedInTransactionCount();

        // About 1.6 million units a rule on each item: six of the hundred fit the item budget of 10 million.
        List<Long> ids = publish(feed, longItem("h1", 1000), longItem("h2", 1000), longItem("h3", 1000));

        assertThat(fixtures.inbox(other)).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(fixtures.inbox(heavy)).as("rules not run for want of budget drop nothing").containsExactlyInAnyOrderElementsOf(ids);
        assertCountsExact(heavy);
        assertCountsExact(other);
        assertThat(metrics.overruns() - overrunsBefore).as("each of the heavy person's items was cut short").isEqualTo(ids.size());
        assertThat(metrics.maxItemCost()).as("never past the item budget").isPositive()
                .isLessThanOrEqualTo(budgets.itemBudget());
        assertThat(metrics.matchedInTransactionCount()).isEqualTo(inTransactionBefore);
    }

    @Test
    void aKeepOnlyRuleTooCostlyToRunOnAnItemLetsItThrough() {
        long feed = fixtures.feed();
        long person = fixtures.person();
        fixtures.subscribe(feed, List.of(person));
        rules.create(person, new RuleDraft(RuleAction.KEEP_ONLY, RuleField.ANY, RuleSyntax.REGEX, COSTLIEST, null, null));
        long overrunsBefore = metrics.overruns();

        // The long item costs about 30 million units, past the budget; the short one is matched, and not kept.
        List<Long> ids = publish(feed, longItem("k1", 20_000), item("k2", "Short"));

        assertThat(fixtures.inbox(person)).containsExactly(ids.get(0));
        assertThat(metrics.overruns() - overrunsBefore).isEqualTo(1);
        assertCountsExact(person);
    }

    @Test
    void rulesAreMatchedOutsideEveryTransactionInBackFillsImportsAndFanOut() {
        long feed = fixtures.feed();
        List<Long> ids = publish(feed, item("o1", "Keep me"), item("o2", "Drop me"));
        publisher.documentCarried(feed, ids);
        long imported = fixtures.feed();
        List<Long> importedIds = publish(imported, item("o3", "Drop me too"), item("o4", "Keep me too"));
        publisher.documentCarried(imported, importedIds);
        long person = fixtures.person();
        Rule drop = rules.create(person, text(RuleAction.DROP, RuleField.TITLE, "drop"));
        long before = metrics.matchedInTransactionCount();

        subscriptions.subscribe(person, feed, null);
        subscriptions.subscribeAll(person, List.of(new Subscriptions.Wanted(imported, null)));
        List<Long> later = publish(feed, item("o5", "Drop me later"), item("o6", "Keep me later"));

        assertThat(fixtures.inbox(person)).containsExactlyInAnyOrder(ids.get(0), importedIds.get(1), later.get(1));
        assertThat(matched(person, drop)).isEqualTo(3);
        assertCountsExact(person);
        assertThat(metrics.matchedInTransactionCount()).as("back-fill, import and fan-out matched outside").isEqualTo(before);
        // The check itself sees matching inside a transaction.
        tx.write("match in a transaction", () -> deliveryRules.decide(
                List.of(new dev.tributary.pubsub.inbox.InboxRow(person, ids.get(1), feed, MediaType.TEXT, false, null))));
        assertThat(metrics.matchedInTransactionCount()).isEqualTo(before + 1);
    }

    @Test
    void patternsAreCheckedWhenWritten() {
        long person = fixtures.person();
        assertThatThrownBy(() -> rules.create(person, new RuleDraft(RuleAction.DROP, RuleField.ANY, RuleSyntax.REGEX, "(a", null, null)))
                .isInstanceOf(InvalidRuleException.class).hasMessageContaining("missing closing )");
        assertThatThrownBy(() -> rules.create(person, text(RuleAction.DROP, RuleField.ANY, "x".repeat(501))))
                .isInstanceOf(InvalidRuleException.class).hasMessageContaining("at most 500");
        assertThatThrownBy(() -> rules.create(person, new RuleDraft(RuleAction.DROP, RuleField.ANY, RuleSyntax.REGEX,
                "((a{100}){100}){100}", null, null))).isInstanceOf(InvalidRuleException.class).hasMessageContaining("repeats too much");
        assertThatThrownBy(() -> rules.create(person, scoped(RuleAction.DROP, "x", fixtures.feed(), null)))
                .isInstanceOf(InvalidRuleException.class).hasMessageContaining("source_id");
        long strangersFolder = folders.create(fixtures.person(), "Theirs").id();
        assertThatThrownBy(() -> rules.create(person, scoped(RuleAction.DROP, "x", null, strangersFolder)))
                .isInstanceOf(InvalidRuleException.class).hasMessageContaining("folder_id");
        assertThat(rules.of(person)).isEmpty();
    }

    @Test
    void aPersonHoldsAtMostTheirRuleLimitAndEditingRestartsTheCount() {
        LimitSettings three = new LimitSettings(5000, 50, 100, 1000, 100, 3, 30, 30);
        Rules capped = new Rules(jdbc, ids, tx, new PersonQuotas(jdbc, three), clock);
        long person = fixtures.person();
        List<Rule> made = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            made.add(capped.create(person, text(RuleAction.DROP, RuleField.TITLE, "word" + i)));
        }
        assertThatThrownBy(() -> capped.create(person, text(RuleAction.DROP, RuleField.TITLE, "one more")))
                .isInstanceOf(QuotaExceededException.class).extracting(e -> ((QuotaExceededException) e).quota()).isEqualTo(Quota.RULES);

        jdbc.sql("UPDATE rules SET matched = 7 WHERE user_id = ? AND id = ?").params(person, made.getFirst().id()).update();
        Rule edited = capped.update(person, made.getFirst().id(), text(RuleAction.MARK_READ, RuleField.TITLE, "word0"));
        assertThat(edited.matched()).isZero();
        assertThat(matched(person, edited)).isZero();
        assertThat(capped.delete(person, made.get(1).id())).isTrue();
        assertThat(capped.delete(fixtures.person(), made.get(2).id())).as("someone else's rule").isFalse();
        assertThat(capped.of(person)).extracting(Rule::id).containsExactly(made.get(0).id(), made.get(2).id());
    }
}
