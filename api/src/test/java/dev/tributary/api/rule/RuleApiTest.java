package dev.tributary.api.rule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.RuleAction;
import dev.tributary.pubsub.RuleDraft;
import dev.tributary.pubsub.RuleField;
import dev.tributary.pubsub.RuleSyntax;
import dev.tributary.pubsub.Rules;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@ApiTest
class RuleApiTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired Rules rules;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    private static NewItem titled(String title) {
        NewItem entry = Deliveries.entry(MediaType.TEXT);
        return new NewItem(entry.guid(), title, entry.summary(), entry.url(), entry.author(), entry.mediaType(), entry.media(),
                entry.tags(), entry.publishedAt());
    }

    private static Map<String, Object> rule(Object... pairs) {
        Map<String, Object> body = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }

    @Test
    void rulesAreCreatedListedChangedAndDeleted() {
        TestUser alice = api.newUser("rule");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);

        ApiResponse created = api.post("/api/v1/rules", alice.token(),
                rule("action", "drop", "field", "title", "match", "regex", "pattern", "^\\[ad\\]", "source_id", String.valueOf(feed)));
        String id = created.json().path("id").asString();
        ApiResponse plain = api.post("/api/v1/rules", alice.token(), rule("action", "star", "pattern", "Release"));
        ApiResponse changed = api.send("PATCH", "/api/v1/rules/" + id, alice.token(), rule("action", "mark_read", "source_id", ""),
                "application/json");

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().path("source_id").asString()).isEqualTo(String.valueOf(feed));
        assertThat(created.json().path("matched").asLong()).isZero();
        assertThat(plain.json().path("field").asString()).as("default field").isEqualTo("any");
        assertThat(plain.json().path("match").asString()).as("default match").isEqualTo("text");
        assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
        assertThat(changed.json().path("action").asString()).isEqualTo("mark_read");
        assertThat(changed.json().path("pattern").asString()).as("left out: unchanged").isEqualTo("^\\[ad\\]");
        assertThat(changed.json().path("source_id").isNull()).isTrue();
        assertThat(api.get("/api/v1/rules", alice.token()).json()).extracting(node -> node.path("id").asString())
                .containsExactly(id, plain.json().path("id").asString());
        assertThat(api.get("/api/v1/rules/" + id, alice.token()).json().path("action").asString()).isEqualTo("mark_read");
        assertThat(api.delete("/api/v1/rules/" + id, alice.token()).status()).isEqualTo(204);
        assertThat(api.delete("/api/v1/rules/" + id, alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/rules", alice.token()).json().size()).isEqualTo(1);
    }

    @Test
    void aRuleActsOnWhatIsDeliveredAndShowsItsMatches() {
        TestUser alice = api.newUser("ruled");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        String drop = api.post("/api/v1/rules", alice.token(), rule("action", "drop", "pattern", "spoiler")).json().path("id").asString();
        String read = api.post("/api/v1/rules", alice.token(), rule("action", "mark_read", "pattern", "weekly digest"))
                .json().path("id").asString();

        List<Long> ids = deliveries.publish(feed, titled("Big SPOILER inside"), titled("Weekly Digest #3"), titled("News"));
        deliveries.awaitInTimeline(alice, List.of(ids.get(1), ids.get(2)));

        assertThat(deliveries.timelineIds(alice)).doesNotContain(ids.get(0));
        assertThat(api.get("/api/v1/rules/" + drop, alice.token()).json().path("matched").asLong()).isEqualTo(1);
        assertThat(api.get("/api/v1/rules/" + read, alice.token()).json().path("matched").asLong()).isEqualTo(1);
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isEqualTo(1);
    }

    @Test
    void hostileAndMalformedRulesAreProblems() {
        TestUser alice = api.newUser("ruleh");
        TestUser bob = api.newUser("ruleh");
        String bobsFolder = api.post("/api/v1/folders", bob.token(), Map.of("name", "Bob's")).json().path("id").asString();
        long notFollowed = deliveries.feed();
        String bobsRule = api.post("/api/v1/rules", bob.token(), rule("action", "drop", "pattern", "x")).json().path("id").asString();

        Map<String, ApiResponse> answers = new HashMap<>();
        answers.put("1 MB pattern", api.post("/api/v1/rules", alice.token(), rule("action", "drop", "pattern", "a".repeat(1 << 20))));
        answers.put("bad regex", api.post("/api/v1/rules", alice.token(), rule("action", "drop", "match", "regex", "pattern", "(a")));
        answers.put("unrolled", api.post("/api/v1/rules", alice.token(),
                rule("action", "drop", "match", "regex", "pattern", "((a{1000}){1000}){1000}")));
        // The audit's stalling rule: within the {n} product and 500 characters, but about 53,000 instructions compiled.
        String alphabet = String.join("|", "abcdefghijklmnopqrstuvwxyz".split(""));
        answers.put("costly", api.post("/api/v1/rules", alice.token(),
                rule("action", "drop", "match", "regex", "pattern", "(" + alphabet + "){1000}N")));
        answers.put("costly change", api.send("PATCH", "/api/v1/rules/" + bobsRule, bob.token(),
                rule("match", "regex", "pattern", "(" + alphabet + "){1000}N"), "application/json"));
        answers.put("backreference", api.post("/api/v1/rules", alice.token(),
                rule("action", "drop", "match", "regex", "pattern", "(a)\\1")));
        answers.put("unknown action", api.post("/api/v1/rules", alice.token(), rule("action", "explode", "pattern", "x")));
        answers.put("unknown field", api.post("/api/v1/rules", alice.token(), rule("action", "drop", "field", "body", "pattern", "x")));
        answers.put("unknown property", api.post("/api/v1/rules", alice.token(), rule("action", "drop", "pattern", "x", "colour", "red")));
        answers.put("empty pattern", api.post("/api/v1/rules", alice.token(), rule("action", "drop", "pattern", "  ")));
        answers.put("source not followed", api.post("/api/v1/rules", alice.token(),
                rule("action", "drop", "pattern", "x", "source_id", String.valueOf(notFollowed))));
        answers.put("someone's folder", api.post("/api/v1/rules", alice.token(), rule("action", "drop", "pattern", "x", "folder_id", bobsFolder)));
        answers.put("both scopes", api.post("/api/v1/rules", alice.token(),
                rule("action", "drop", "pattern", "x", "folder_id", bobsFolder, "source_id", "1")));
        answers.put("not an id", api.post("/api/v1/rules", alice.token(), rule("action", "drop", "pattern", "x", "source_id", "abc")));
        answers.put("malformed", api.post("/api/v1/rules", alice.token(), "{\"action\":"));
        answers.put("not json", api.send("POST", "/api/v1/rules", alice.token(), "action=drop", "application/json"));

        answers.forEach((what, answer) -> {
            assertThat(answer.status()).as(what + ": " + answer).isEqualTo(400);
            assertThat(answer.contentType()).as(what).startsWith("application/problem+json");
        });
        assertThat(answers.get("bad regex").json().path("errors").get(0).path("field").asString()).isEqualTo("pattern");
        assertThat(answers.get("bad regex").json().path("errors").get(0).path("message").asString())
                .contains("missing closing )");
        assertThat(answers.get("1 MB pattern").json().path("errors").get(0).path("message").asString()).contains("at most 500");
        assertThat(answers.get("costly").json().path("errors").get(0).path("field").asString()).isEqualTo("pattern");
        assertThat(answers.get("costly").json().path("errors").get(0).path("message").asString())
                .contains("too costly to match").contains("at most 2000");
        assertThat(answers.get("costly change").json().path("errors").get(0).path("message").asString()).contains("at most 2000");
        assertThat(answers.get("source not followed").json().path("errors").get(0).path("field").asString()).isEqualTo("source_id");
        assertThat(answers.get("someone's folder").json().path("errors").get(0).path("field").asString()).isEqualTo("folder_id");

        List<ApiResponse> notFound = List.of(api.get("/api/v1/rules/" + bobsRule, alice.token()),
                api.send("PATCH", "/api/v1/rules/" + bobsRule, alice.token(), rule("pattern", "y"), "application/json"),
                api.delete("/api/v1/rules/" + bobsRule, alice.token()), api.get("/api/v1/rules/nope", alice.token()));
        assertThat(notFound).allSatisfy(answer -> {
            assertThat(answer.status()).as(answer.toString()).isEqualTo(404);
            assertThat(answer.contentType()).startsWith("application/problem+json");
        });
        assertThat(api.get("/api/v1/rules", alice.token()).json().size()).isZero();
        assertThat(api.get("/api/v1/rules/" + bobsRule, bob.token()).json().path("pattern").asString()).isEqualTo("x");
    }

    @Test
    void aPersonHasAtMostTheirRuleLimitAndAReadTokenCannotWrite() {
        TestUser alice = api.newUser("rulel");
        for (int i = 0; i < rules.limit(); i++) {
            rules.create(alice.numericId(), new RuleDraft(RuleAction.DROP, RuleField.TITLE, RuleSyntax.TEXT, "word " + i, null, null));
        }
        String readOnly = api.createToken(alice.username(), alice.password(), "reader", "read");

        ApiResponse tooMany = api.post("/api/v1/rules", alice.token(), rule("action", "drop", "pattern", "one more"));
        ApiResponse refused = api.post("/api/v1/rules", readOnly, rule("action", "drop", "pattern", "x"));
        JsonNode listed = api.get("/api/v1/rules", readOnly).json();

        assertThat(tooMany.status()).as(tooMany.toString()).isEqualTo(422);
        assertThat(tooMany.json().path("reason").asString()).isEqualTo("too_many_rules");
        assertThat(tooMany.json().path("limit").asInt()).isEqualTo(rules.limit());
        assertThat(refused.status()).isEqualTo(403);
        assertThat(listed.size()).isEqualTo(rules.limit());
    }
}
