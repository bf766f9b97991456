package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import dev.tributary.storage.Transactions;
import dev.tributary.storage.testing.Await;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A person's page stamp exists once someone reads it, and from then on every change to their
 * inbox moves it; deliveries to a person nobody reads create no key; a move Redis refused voids
 * every kept page once Redis takes writes again.
 */
@WithEmbeddedPubsub
class PageStampsTest {

    @Autowired Inbox inbox;
    @Autowired Transactions tx;
    @Autowired Fixtures fixtures;
    @Autowired StringRedisTemplate redis;

    private String key(long person) {
        return "tributary:tl:" + PersonSlots.tag(person) + ":" + person;
    }

    private TimelineStamps stamps(long person) {
        return inbox.stamps(person, List.of(), id -> List.of(), List.of());
    }

    private void deliver(long person) {
        long item = ThreadLocalRandom.current().nextLong(1L << 40, 1L << 50);
        tx.write("deliver", status -> inbox.deliverItems(List.of(new InboxRow(person, item, 1, MediaType.TEXT, false)), status, false));
    }

    @Test
    void theCountsVersionMovesWithEveryCountersMoveARolledBackOneToo() {
        long person = fixtures.person();
        assertThat(inbox.countsVersion(person)).as("the node keeps no list of their pulled sources yet").isNull();
        inbox.unreadAndPulledSources(person, id -> List.of());
        String first = inbox.countsVersion(person);
        assertThat(first).isNotNull();
        assertThat(inbox.countsVersion(person)).isEqualTo(first);

        deliver(person);
        String second = inbox.countsVersion(person);
        assertThat(second).as("a delivery").isNotNull().isNotEqualTo(first);

        long item = ThreadLocalRandom.current().nextLong(1L << 40, 1L << 50);
        assertThatThrownBy(() -> tx.write("rolled back", status -> {
            inbox.deliverItems(List.of(new InboxRow(person, item, 1, MediaType.TEXT, false)), status, false);
            throw new IllegalStateException("rolled back after the counters moved");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(inbox.countsVersion(person)).as("counts kept while a rolled-back move was in flight are void")
                .isNotNull().isNotEqualTo(second);
    }

    @Test
    void aFollowerOfPulledSourcesHasACountsVersionThatTheirSourcesMove() {
        long person = fixtures.person();
        inbox.unreadAndPulledSources(person, id -> List.of());
        assertThat(inbox.countsVersion(person)).isNotNull();

        tx.write("follow a pulled source", status -> {
            inbox.pulledFollowsChanged(person);
            return null;
        });
        assertThat(inbox.countsVersion(person)).as("the kept list of pulled sources no longer holds").isNull();
        inbox.unreadAndPulledSources(person, id -> List.of(42L));
        String following = inbox.countsVersion(person);
        assertThat(following).as("read with the list").isNotNull();
        assertThat(inbox.countsVersions(List.of(person))).containsEntry(person, following);

        tx.write("publish on the pulled source", status -> {
            inbox.sourcesChanged(List.of(42L));
            return null;
        });
        assertThat(inbox.countsVersion(person)).as("a publish of their pulled source").isNotNull().isNotEqualTo(following);
        tx.write("publish on another pulled source", status -> {
            inbox.sourcesChanged(List.of(43L));
            return null;
        });
        assertThat(inbox.countsVersion(person)).as("another source's publish").isEqualTo(inbox.countsVersions(List.of(person)).get(person));
    }

    @Test
    void aBatchOfVersionsDrawsNoStampAndLeavesOutWhoHasNone() {
        long drawnBefore = fixtures.person();
        long neverRead = fixtures.person();
        inbox.unreadAndPulledSources(drawnBefore, id -> List.of());
        inbox.unreadAndPulledSources(neverRead, id -> List.of());
        String version = inbox.countsVersion(drawnBefore);
        assertThat(inbox.countsVersions(List.of(drawnBefore, neverRead))).as("no stamp drawn for a stream batch")
                .containsOnlyKeys(drawnBefore).containsEntry(drawnBefore, version);
        assertThat(inbox.countsVersion(neverRead)).as("a request draws it").isNotNull();
    }

    @Test
    void aDeliveryToSomeoneNobodyReadsCreatesNoStamp() {
        long person = fixtures.person();
        deliver(person);
        assertThat(redis.hasKey(key(person))).isFalse();
    }

    @Test
    void aReadDrawsTheStampAndEveryLaterDeliveryMovesIt() {
        long person = fixtures.person();
        deliver(person);
        TimelineStamps first = stamps(person);
        assertThat(first.person()).isNotNull();
        assertThat(stamps(person)).isEqualTo(first);

        deliver(person);
        TimelineStamps second = stamps(person);
        assertThat(second.person()).isNotEqualTo(first.person());

        redis.delete(key(person)); // expired, or lost with Redis
        deliver(person);
        TimelineStamps third = stamps(person);
        assertThat(third.person()).as("drawn again, unlike any page kept before").isNotNull().isNotEqualTo(second.person());
        deliver(person);
        assertThat(stamps(person).person()).isNotEqualTo(third.person());
    }

    @Test
    void oneBatchMovesTheStampsOfThoseWhoReadAndCreatesNoneForTheOthers() {
        List<Long> people = List.of(fixtures.person(), fixtures.person(), fixtures.person(), fixtures.person());
        TimelineStamps first = stamps(people.get(0));
        TimelineStamps third = stamps(people.get(2));
        long item = ThreadLocalRandom.current().nextLong(1L << 40, 1L << 50);

        tx.write("deliver", status -> inbox.deliverItems(
                people.stream().map(person -> new InboxRow(person, item, 1, MediaType.TEXT, false)).toList(), status, false));

        assertThat(stamps(people.get(0)).person()).isNotEqualTo(first.person());
        assertThat(stamps(people.get(2)).person()).isNotEqualTo(third.person());
        assertThat(redis.hasKey(key(people.get(1)))).as("nobody read them: no key").isFalse();
        assertThat(redis.hasKey(key(people.get(3)))).isFalse();
    }

    @Test
    void aFanOutBatchWithMoreToComeMovesTheStampOffItsThreadBeforeASettleReturns() {
        long person = fixtures.person();
        deliver(person);
        TimelineStamps first = stamps(person);
        long item = ThreadLocalRandom.current().nextLong(1L << 40, 1L << 50);

        tx.write("deliver", status -> inbox.deliverItems(List.of(new InboxRow(person, item, 1, MediaType.TEXT, false)), status, true));

        assertThat(inbox.deliveriesSettled(Duration.ofSeconds(10))).isTrue();
        assertThat(stamps(person).person()).isNotEqualTo(first.person());
    }

    @Test
    void aStampMoveRedisRefusedVoidsEveryKeptPageOnceRedisTakesWritesAgain() {
        String user = "stamps-" + ThreadLocalRandom.current().nextInt(1_000_000);
        String password = "p" + ThreadLocalRandom.current().nextLong();
        // A node whose Redis refuses its writes (as a Redis that is down would): a user that may only read.
        acl("SETUSER", user, "on", ">" + password, "~*", "&*", "+@all", "-@write", "-@scripting");
        LettuceConnectionFactory own = connectionAs(user, password);
        PageStamps stamps = new PageStamps(template(own), tx);
        try {
            long person = fixtures.person();
            String epoch = stamps(person).epoch();
            assertThat(epoch).isNotNull();

            stamps.peopleChanged(List.of(person));

            assertThat(stamps.owesEpoch()).as("the failed move is remembered").isTrue();
            assertThat(redis.opsForValue().get(EPOCH)).as("nothing moved yet").isEqualTo(epoch);
            acl("SETUSER", user, "+@all");
            Await.until("the epoch re-drawn once Redis takes writes", () -> !epoch.equals(redis.opsForValue().get(EPOCH)));
            assertThat(stamps(person).epoch()).as("every page kept under the old epoch is void").isNotEqualTo(epoch);
            assertThat(stamps.owesEpoch()).isFalse();
        } finally {
            stamps.destroy();
            own.destroy();
            acl("DELUSER", user);
        }
    }

    private static final String EPOCH = "tributary:tl:epoch";

    /**
     * An {@code ACL} command on every master (ACL users are per server, also in a cluster), each on
     * a client of its own (Spring Data has none; its generic execute expects bulk replies).
     */
    private void acl(String... args) {
        for (RedisURI server : servers()) {
            RedisClient client = RedisClient.create(server);
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                CommandArgs<String, String> command = new CommandArgs<>(StringCodec.UTF8);
                for (String arg : args) {
                    command.add(arg);
                }
                if (args[0].equals("DELUSER")) {
                    connection.sync().dispatch(CommandType.ACL, new IntegerOutput<>(StringCodec.UTF8), command);
                } else {
                    connection.sync().dispatch(CommandType.ACL, new StatusOutput<>(StringCodec.UTF8), command);
                }
            } finally {
                client.shutdown();
            }
        }
    }

    /** The embedded servers ask for the app's password (issue 52); the shared factory knows it. */
    private RedisURI withPassword(RedisURI server) {
        RedisURI.Builder builder = RedisURI.builder().withHost(server.getHost()).withPort(server.getPort());
        String password = shared().getPassword();
        return (password == null || password.isEmpty() ? builder : builder.withPassword(password.toCharArray())).build();
    }

    private LettuceConnectionFactory shared() {
        return (LettuceConnectionFactory) redis.getConnectionFactory();
    }

    /** The Redis servers this test's context writes to: the one, or the cluster's masters. */
    private List<RedisURI> servers() {
        LettuceConnectionFactory shared = shared();
        if (!shared.isClusterAware()) {
            return List.of(withPassword(RedisURI.create(shared.getHostName(), shared.getPort())));
        }
        try (RedisClusterConnection cluster = shared.getClusterConnection()) {
            List<RedisURI> masters = new ArrayList<>();
            cluster.clusterGetNodes().forEach(node -> {
                if (node.isMaster()) {
                    masters.add(withPassword(RedisURI.create(node.getHost(), node.getPort())));
                }
            });
            assertThat(masters).as("the cluster's masters").hasSize(3);
            return masters;
        }
    }

    private LettuceConnectionFactory connectionAs(String user, String password) {
        LettuceConnectionFactory shared = shared();
        RedisConfiguration.WithAuthentication config = shared.isClusterAware()
                ? new RedisClusterConfiguration(servers().stream().map(server -> server.getHost() + ":" + server.getPort()).toList())
                : new RedisStandaloneConfiguration(shared.getHostName(), shared.getPort());
        config.setUsername(user);
        config.setPassword(password);
        LettuceConnectionFactory factory = new LettuceConnectionFactory((RedisConfiguration) config);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    private static StringRedisTemplate template(LettuceConnectionFactory factory) {
        StringRedisTemplate template = new StringRedisTemplate(factory);
        template.afterPropertiesSet();
        return template;
    }
}
