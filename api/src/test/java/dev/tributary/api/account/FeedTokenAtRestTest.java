package dev.tributary.api.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.People;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The private feed token as a reader of the database (a backup, a replica) finds it: a hash, which
 * opens no feed; the token itself is shown once, when made. Tokens stored in clear before are
 * hashed the first time they are used, and keep working.
 */
@ApiTest
class FeedTokenAtRestTest {

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;
    @Autowired People people;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void theMadeTokenIsShownOnceAndTheStoredAccountHoldsOnlyItsHash() throws Exception {
        TestUser dora = api.newUser("ft");

        ApiResponse made = api.post("/api/v1/me/feed_token", dora.token(), null);

        assertThat(made.status()).isEqualTo(200);
        String token = made.json().path("feed_token").asString();
        assertThat(token).hasSizeGreaterThan(20);
        ApiResponse me = api.get("/api/v1/me", dora.token());
        assertThat(me.json().has("feed_token")).as("shown once: " + me.body()).isFalse();
        assertThat(me.body()).doesNotContain(token);
        assertThat(feed(token).status()).isEqualTo(200);

        String body = storedBody(dora.numericId());
        assertThat(body).contains(dora.username()).as("no clear token in the stored account").doesNotContain(token);
        String stored = people.find(dora.numericId()).orElseThrow().body().feedToken();
        assertThat(stored).startsWith("sha256:").isNotEqualTo(token);
        assertThat(feed(stored).status()).as("the stored value opens no feed").isEqualTo(404);
        assertThat(feed(stored.substring("sha256:".length())).status()).isEqualTo(404);
    }

    @Test
    void aTokenStoredInClearBeforeKeepsWorkingAndIsHashedOnFirstUse() throws Exception {
        TestUser ed = api.newUser("ftold");
        String legacy = "legacyClearToken" + ed.numericId();
        people.changeFeedToken(ed.numericId(), legacy);
        assertThat(storedBody(ed.numericId())).as("the state before hashing").contains(legacy);

        assertThat(feed(legacy).status()).isEqualTo(200);

        assertThat(storedBody(ed.numericId())).doesNotContain(legacy);
        assertThat(people.find(ed.numericId()).orElseThrow().body().feedToken()).startsWith("sha256:");
        assertThat(feed(legacy).status()).as("the url the person gave their reader still works").isEqualTo(200);
    }

    @Test
    void aTokenStoredInClearIsHashedWhenItsOwnerReadsMe() throws Exception {
        TestUser flo = api.newUser("ftme");
        String legacy = "legacyMeToken" + flo.numericId();
        people.changeFeedToken(flo.numericId(), legacy);

        ApiResponse me = api.get("/api/v1/me", flo.token());

        assertThat(me.status()).isEqualTo(200);
        assertThat(me.body()).doesNotContain(legacy);
        assertThat(storedBody(flo.numericId())).doesNotContain(legacy);
        assertThat(feed(legacy).status()).isEqualTo(200);
    }

    private ApiResponse feed(String token) {
        return api.send(api.builder("/feeds/home.rss?token=" + token, null).header("Accept", "*/*").GET());
    }

    /** The account's body as the database holds it: a format byte, then JSON as is or zlib-deflated. */
    private String storedBody(long id) throws DataFormatException {
        byte[] raw = jdbc.sql("SELECT body FROM entities WHERE id = ?").param(id).query(byte[].class).single();
        byte[] json = Arrays.copyOfRange(raw, 1, raw.length);
        if (raw[0] == 1) {
            Inflater inflater = new Inflater();
            inflater.setInput(json);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            while (!inflater.finished()) {
                out.write(buffer, 0, inflater.inflate(buffer));
            }
            inflater.end();
            json = out.toByteArray();
        }
        return new String(json, StandardCharsets.UTF_8);
    }
}
