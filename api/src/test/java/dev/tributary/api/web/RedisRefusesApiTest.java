package dev.tributary.api.web;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.embedded.EmbeddedCredentials;
import java.util.List;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A Redis that refuses writes for now (here out of memory under {@code noeviction}; a failed save,
 * a replica after a failover answer alike) is the store's 503 with Retry-After, not a 500, and
 * loses nothing: the refused change is rolled back whole and goes through once Redis takes writes.
 */
@ApiTest
class RedisRefusesApiTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired StringRedisTemplate redis;
    @Value("${tributary.embedded.data-dir}") String dataDir;
    @Value("${spring.data.redis.url}") String redisUrl;

    @Test
    void aWriteRedisRefusesForNowIsA503AndGoesThroughLater() {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("oom");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        long item = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isEqualTo(1);

        String maxMemory = maxMemory();
        ApiResponse refused;
        try {
            setMaxMemory("1");
            refused = api.post("/api/v1/items/" + item + "/read", alice.token(), null);
        } finally {
            setMaxMemory(maxMemory);
        }

        assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.header("Retry-After")).isEqualTo("5");
        assertThat(refused.json().path("type").asString()).isEqualTo("urn:tributary:problem:unavailable");
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).as("the refused mark was rolled back")
                .isEqualTo(1);
        assertThat(api.post("/api/v1/items/" + item + "/read", alice.token(), null).status()).isEqualTo(204);
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isZero();
    }

    /** The embedded Redis knows CONFIG only by the name in its credentials file, which the app's OS user may read. */
    private String config() {
        return EmbeddedCredentials.inDirectory(Path.of(dataDir)).redisAdminCommand("CONFIG");
    }

    private String maxMemory() {
        List<Object> pair = config("GET", "maxmemory");
        return pair.size() < 2 ? "0" : String.valueOf(pair.get(1));
    }

    private void setMaxMemory(String value) {
        config("SET", "maxmemory", value);
    }

    /** The renamed command on a client of its own: Spring Data's generic execute reads one bulk reply only. */
    private List<Object> config(String... args) {
        String name = config();
        ProtocolKeyword command = new ProtocolKeyword() {
            @Override
            public byte[] getBytes() {
                return name.getBytes(StandardCharsets.US_ASCII);
            }

            @Override
            public String toString() {
                return name;
            }
        };
        RedisClient client = RedisClient.create(redisUrl);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().dispatch(command, new ArrayOutput<>(StringCodec.UTF8), new CommandArgs<>(StringCodec.UTF8).addValues(args));
        } finally {
            client.shutdown();
        }
    }
}
