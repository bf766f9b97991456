package dev.tributary.pubsub.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A page of subscribers flags exactly those with filter rules, whether their rules are read as
 * one range of ids or, where the range holds more rule owners than the page holds people, by the
 * page's own people.
 */
@WithEmbeddedPubsub
class AudiencesTest {

    @Autowired Audiences audiences;
    @Autowired Fixtures fixtures;
    @Autowired JdbcClient jdbc;

    @Test
    void aPageFlagsItsPeopleWithRulesWhenRuleOwnersAreFew() {
        long feed = fixtures.feed();
        List<Long> people = fixtures.people(5).stream().sorted().toList();
        fixtures.subscribe(feed, people);
        rule(people.get(1));
        rule(people.get(3));

        List<Subscriber> page = audiences.page(feed, 0, FanoutTask.DONE, 10);

        assertThat(page).extracting(Subscriber::userId).containsExactlyElementsOf(people);
        assertThat(page).filteredOn(Subscriber::hasRules).extracting(Subscriber::userId)
                .containsExactly(people.get(1), people.get(3));
    }

    @Test
    void aPageSpreadOverManyRuleOwnersFlagsOnlyItsOwnPeople() {
        long feed = fixtures.feed();
        List<Long> everyone = fixtures.people(8).stream().sorted().toList();
        // Two subscribers at the ends; six people between them, not subscribed, all with rules.
        List<Long> subscribers = List.of(everyone.getFirst(), everyone.getLast());
        fixtures.subscribe(feed, subscribers);
        everyone.subList(1, 7).forEach(this::rule);
        rule(everyone.getLast());

        List<Subscriber> page = audiences.page(feed, 0, FanoutTask.DONE, 10);

        assertThat(page).extracting(Subscriber::userId).containsExactlyElementsOf(subscribers);
        assertThat(page).filteredOn(Subscriber::hasRules).extracting(Subscriber::userId).containsExactly(everyone.getLast());
    }

    private void rule(long person) {
        jdbc.sql("""
                INSERT INTO rules (user_id, id, action, field, kind, pattern, created_at)
                VALUES (?, ?, 'mark_read', 'title', 'word', 'x', UTC_TIMESTAMP(6))
                """).params(person, person).update();
    }
}
