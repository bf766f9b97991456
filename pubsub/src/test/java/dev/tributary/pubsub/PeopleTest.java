package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

@WithEmbeddedPubsub
class PeopleTest {

    @Autowired People people;
    @Autowired Fixtures fixtures;

    @Test
    void anAccountIsFoundByIdUsernameAndFeedToken() {
        Account account = account();

        Stored<Account> added = people.add(account);

        assertThat(added.body()).isEqualTo(account);
        assertThat(people.find(added.id())).hasValueSatisfying(found -> assertThat(found.body()).isEqualTo(account));
        assertThat(people.findByUsername(account.username())).map(Stored::id).hasValue(added.id());
        assertThat(people.findByFeedToken(account.feedToken())).map(Stored::id).hasValue(added.id());
        Stored<Account> other = people.add(account());
        assertThat(people.getAll(List.of(other.id(), fixtures.person(), added.id())))
                .as("in the order asked, missing ones skipped").extracting(Stored::id).containsExactly(other.id(), added.id());
    }

    @Test
    void aTakenUsernameIsRefusedAndNothingIsStored() {
        Account first = people.add(account()).body();
        Account second = new Account(first.username(), "other-hash", null, "token-" + fixtures.person(), now());

        assertThatThrownBy(() -> people.add(second)).isInstanceOf(UsernameTakenException.class)
                .hasMessageContaining(first.username());
        assertThat(people.findByFeedToken(second.feedToken())).isEmpty();
        assertThat(people.findByUsername(first.username())).map(Stored::body).hasValue(first);
    }

    @Test
    void aNewPasswordHashOrFeedTokenReplacesOnlyThat() {
        Stored<Account> added = people.add(account());
        Account before = added.body();

        Account rehashed = people.changePasswordHash(added.id(), "new-hash").body();
        String token = "token-" + fixtures.person();
        Account rotated = people.changeFeedToken(added.id(), token).body();

        assertThat(rehashed.passwordHash()).isEqualTo("new-hash");
        assertThat(rotated).isEqualTo(new Account(before.username(), "new-hash", before.email(), token, before.createdAt()));
        assertThat(people.findByFeedToken(before.feedToken())).as("the old feed url stops working").isEmpty();
        assertThat(people.findByFeedToken(token)).map(Stored::id).hasValue(added.id());
        assertThat(people.find(added.id())).map(Stored::body).hasValue(rotated);
    }

    @Test
    void lookupsOfMalformedKeysFindNobody() {
        assertThat(people.findByUsername(null)).isEmpty();
        assertThat(people.findByUsername("")).isEmpty();
        assertThat(people.findByUsername("x".repeat(31))).as("longer than the column").isEmpty();
        assertThat(people.findByUsername("nobody_" + fixtures.person() % 1000)).isEmpty();
        assertThat(people.findByFeedToken(null)).isEmpty();
        assertThat(people.findByFeedToken("")).isEmpty();
        assertThat(people.findByFeedToken("\u0000' OR 1=1 --")).isEmpty();
        assertThat(people.find(fixtures.person())).isEmpty();
    }

    private Account account() {
        long n = fixtures.person();
        return new Account("p" + n, "hash-" + n, "p" + n + "@example.test", "token-" + n, now());
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
