package dev.tributary.api.xmpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.Prosody;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Roles;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.XmppOutbox;
import dev.tributary.pubsub.XmppSettings;
import dev.tributary.storage.testing.Await;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.stream.StreamSupport;
import org.jivesoftware.smack.XMPPException;
import org.jivesoftware.smackx.pubsub.Item;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.JsonNode;

/**
 * XMPP push end to end with real parts: the app publishes to a Prosody of the test's own (Debian's
 * {@code prosody}, started by the test kit), and Smack clients, as people's XMPP clients, subscribe
 * and receive. Public nodes (publish, republish under the same id, retract), a closed group's
 * whitelist following its membership, a linked home feed with its code, filter rules and unlink,
 * a server restart in the middle of a stream, and two publishers (two nodes) at once.
 */
@ApiTest
class XmppPushTest {

    private static Prosody prosody;

    @DynamicPropertySource
    static void xmpp(DynamicPropertyRegistry registry) {
        if (!installed()) {
            return;
        }
        prosody = Prosody.start();
        registry.add("tributary.xmpp.server", () -> "127.0.0.1");
        registry.add("tributary.xmpp.port", prosody::port);
        registry.add("tributary.xmpp.domain", () -> Prosody.DOMAIN);
        registry.add("tributary.xmpp.address", () -> Prosody.APP_USER + "@" + Prosody.DOMAIN);
        registry.add("tributary.xmpp.secret", () -> Prosody.APP_SECRET);
        registry.add("tributary.xmpp.pubsub-service", () -> Prosody.PUBSUB);
        registry.add("tributary.xmpp.require-tls", () -> "false");
        registry.add("tributary.xmpp.poll-interval", () -> "50ms");
        registry.add("tributary.xmpp.max-backoff", () -> "1s");
    }

    private static boolean installed() {
        try {
            Prosody.assumeInstalled();
            return true;
        } catch (org.opentest4j.TestAbortedException e) {
            return false;
        }
    }

    @BeforeAll
    static void prosodyInstalled() {
        Prosody.assumeInstalled();
    }

    @AfterAll
    static void stopProsody() {
        if (prosody != null) {
            prosody.close();
        }
    }

    @LocalServerPort int port;
    @Autowired XmppOutbox outbox;
    @Autowired Publisher publisher;
    @Autowired Sources sources;
    @Autowired Groups groups;
    @Autowired XmppSettings settings;
    @Autowired XmppDelivery delivery;
    @Autowired Roles roles;
    @Autowired ObjectProvider<MeterRegistry> meters;
    @Autowired XmppPublisher appPublisher;
    @Autowired org.springframework.jdbc.core.JdbcTemplate jdbc;
    @Autowired dev.tributary.storage.IdGenerator ids;

    @Test
    void publicNodeGetsEachItemOnceUnderItsIdRepublishedOnUpdateRetractedOnDeleteWithTwoPublishers() throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser alice = api.newUser("xalice");
        String node = "tributary/people/" + alice.id();
        String first = post(api, alice, "first post");
        try (XmppTestClient reader = XmppTestClient.signUp(prosody, "reader1")) {
            Await.until("alice's node made", () -> exists(reader, node));
            reader.subscribe(node);
            // A second node's publisher besides the app's own: they share the outbox under its lease.
            XmppPublisher second = new XmppPublisher(settings, outbox, delivery, roles, meters);
            second.start();
            try {
                List<String> posted = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    posted.add(post(api, alice, "post " + i));
                }
                // The app's own publisher stops (a node going away, perhaps in the middle of a publish): the second
                // takes the lease over, and what the first may have sent is not sent twice.
                appPublisher.stop();
                try {
                    for (int i = 3; i < 6; i++) {
                        posted.add(post(api, alice, "post " + i));
                    }
                    Await.until("the second publisher took over", () -> reader.ids("publish", node).contains(posted.getLast()));
                } finally {
                    appPublisher.start();
                }
                long sourceId = sources.ofUser(alice.numericId()).id();
                long edited = publisher.publish(sourceId, List.of(entry("edit-me", "Before"))).created().getFirst();
                publisher.publish(sourceId, List.of(entry("edit-me", "After the edit")));
                assertThat(api.delete("/api/v1/posts/" + posted.get(2), alice.token()).status()).isEqualTo(204);
                String sentinel = post(api, alice, "sentinel");
                Await.until("the sentinel reached the reader", () -> reader.ids("publish", node).contains(sentinel));

                List<String> published = reader.ids("publish", node);
                assertThat(published).doesNotContain(first); // published before the subscription
                for (String id : posted) {
                    assertThat(published).as("item %s", id).containsOnlyOnce(id);
                }
                // The update: the same item id once more, with the new content.
                assertThat(published.stream().filter(id -> id.equals(Long.toString(edited)))).hasSize(2);
                assertThat(reader.events("publish", node).stream().filter(e -> e.itemId().equals(Long.toString(edited)))
                        .toList().getLast().payload()).contains("After the edit");
                assertThat(reader.ids("retract", node)).containsExactly(posted.get(2));

                // The payload is the Atom export's entry of the item.
                String payload = reader.events("publish", node).stream().filter(e -> e.itemId().equals(posted.get(0)))
                        .findFirst().orElseThrow().payload();
                assertThat(payload).matches("(?s)<entry xmlns=['\"]http://www.w3.org/2005/Atom['\"].*").contains("post 0");
                String export = api.get("/feeds/users/" + alice.username() + ".atom", null).body();
                assertThat(export).contains(atomId(payload));

                // The node keeps the items, the deleted one gone, the edited one once.
                List<Item> kept = reader.pubsub().getLeafNode(node).getItems();
                List<String> keptIds = kept.stream().map(Item::getId).toList();
                assertThat(keptIds).contains(posted.get(0), posted.get(5), Long.toString(edited)).doesNotContain(posted.get(2));
                assertThat(keptIds.stream().filter(id -> id.equals(Long.toString(edited)))).hasSize(1);
            } finally {
                second.stop();
            }
        }
    }

    @Test
    void closedGroupNodeAdmitsExactlyItsMembersWithLinkedAddresses() throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser bob = api.newUser("xbob");
        TestUser carol = api.newUser("xcarol");
        try (XmppTestClient bobs = XmppTestClient.signUp(prosody, "bob");
                XmppTestClient carols = XmppTestClient.signUp(prosody, "carol");
                XmppTestClient outsider = XmppTestClient.signUp(prosody, "dave")) {
            linkAndProve(api, bob, bobs);
            linkAndProve(api, carol, carols);
            ApiResponse created = api.post("/api/v1/groups", bob.token(), Map.of("name", "closed xmpp", "open", false));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            String groupId = created.json().path("id").asString();
            String node = "tributary/groups/" + groupId;
            groups.addMember(Long.parseLong(groupId), carol.numericId());
            Await.until("carol admitted to the closed group's node", () -> subscribes(carols, node));
            // Bob's own node too: what reaches carol after the group's post proves the post had its turn.
            String bobsNode = "tributary/people/" + bob.id();
            post(api, bob, "bob is here");
            Await.until("bob's node made", () -> exists(carols, bobsNode));
            carols.subscribe(bobsNode);

            assertThatThrownBy(() -> outsider.subscribe(node)).isInstanceOf(XMPPException.XMPPErrorException.class)
                    .hasMessageContaining("forbidden");

            String inGroup = groupPost(api, bob, groupId, "for members");
            Await.until("carol received the group's post", () -> carols.ids("publish", node).contains(inGroup));
            assertThat(outsider.events()).isEmpty();

            // Removal takes effect on the node: carol's subscription ends with her membership.
            assertThat(api.delete("/api/v1/groups/" + groupId + "/members/" + carol.username(), bob.token()).status()).isEqualTo(204);
            // No wait: the membership's outbox row was written before the next post's, and rows go out in order.
            String after = groupPost(api, bob, groupId, "members only now");
            String sentinel = post(api, bob, "after the group post");
            Await.until("the sentinel reached carol", () -> carols.ids("publish", bobsNode).contains(sentinel));
            assertThat(carols.ids("publish", node)).doesNotContain(after);
        }
    }

    @Test
    void linkedHomeFeedGetsNewEntriesHonouringRulesUntilUnlinked() throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser erin = api.newUser("xerin");
        TestUser frank = api.newUser("xfrank");
        TestUser mallory = api.newUser("xmallory");
        try (XmppTestClient erins = XmppTestClient.signUp(prosody, "erin")) {
            linkAndProve(api, erin, erins);
            assertThat(api.get("/api/v1/me/xmpp", erin.token()).json().path("verified").asBoolean()).isTrue();
            // An address proved by one account cannot be linked to another.
            assertThat(api.post("/api/v1/me/xmpp", mallory.token(), Map.of("address", erins.address())).status()).isEqualTo(409);

            assertThat(api.post("/api/v1/rules", erin.token(), Map.of("action", "drop", "pattern", "DROPME")).status()).isEqualTo(201);
            ApiResponse created = api.post("/api/v1/groups", erin.token(), Map.of("name", "erin's open", "open", true));
            String groupId = created.json().path("id").asString();
            groups.addMember(Long.parseLong(groupId), frank.numericId());

            String dropped = groupPost(api, frank, groupId, "DROPME please");
            Await.until("the dropped post fanned out (frank has it)", () -> inHome(api, frank, dropped));
            String kept = groupPost(api, frank, groupId, "worth reading");
            Await.until("erin's client received the kept entry", () -> erins.ids("publish", PublicNodes.HOME).contains(kept));
            assertThat(erins.ids("publish", PublicNodes.HOME)).containsOnlyOnce(kept).doesNotContain(dropped);
            assertThat(erins.events("publish", PublicNodes.HOME).getFirst().payload()).contains("worth reading");

            // Unlinking stops it at once: what follows never arrives.
            assertThat(api.delete("/api/v1/me/xmpp", erin.token()).status()).isEqualTo(204);
            String later = groupPost(api, frank, groupId, "after unlinking");
            Await.until("the later post fanned out", () -> inHome(api, erin, later));
            Await.until("the outbox drained", () -> outbox.backlog() == 0);
            String erinsNode = "tributary/people/" + erin.id();
            post(api, erin, "erin's own");
            Await.until("erin's node made", () -> exists(erins, erinsNode));
            erins.subscribe(erinsNode);
            String sentinel = post(api, erin, "sentinel");
            Await.until("the sentinel reached erin", () -> erins.ids("publish", erinsNode).contains(sentinel));
            assertThat(erins.ids("publish", PublicNodes.HOME)).doesNotContain(later);
        }
    }

    @Test
    void aServerRestartMidStreamLosesNothingAndDoublesNothing() throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser gina = api.newUser("xgina");
        String node = "tributary/people/" + gina.id();
        post(api, gina, "opening");
        try (XmppTestClient reader = XmppTestClient.signUp(prosody, "reader2")) {
            Await.until("gina's node made", () -> exists(reader, node));
            reader.subscribe(node);
            List<String> before = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                before.add(post(api, gina, "before " + i));
            }
            Await.until("the first posts arrived", () -> reader.ids("publish", node).containsAll(before));

            reader.disconnect();
            prosody.stop();
            List<String> during = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                during.add(post(api, gina, "during " + i));
            }
            Await.until("the publisher found the server away", () -> !appPublisher.connected() && outbox.backlog() >= 5);
            prosody.restart();
            Await.until("the outbox drained once the server was back", () -> outbox.backlog() == 0);
            reader.connect(); // the notifications kept while it was away arrive now
            List<String> after = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                after.add(post(api, gina, "after " + i));
            }
            Await.until("every post arrived", () -> reader.ids("publish", node).containsAll(after)
                    && reader.ids("publish", node).containsAll(during));
            Map<String, Integer> counts = new HashMap<>();
            reader.ids("publish", node).forEach(id -> counts.merge(id, 1, Integer::sum));
            for (String id : concat(before, during, after)) {
                assertThat(counts.get(id)).as("notifications of item %s", id).isEqualTo(1);
            }
            List<String> keptIds = reader.pubsub().getLeafNode(node).getItems().stream().map(Item::getId).toList();
            assertThat(keptIds).containsAll(concat(before, during, after));

            // What a lost answer leaves: a publish the server took, marked in doubt and due again. It is not sent twice.
            String redone = before.getFirst();
            long sourceId = sources.ofUser(gina.numericId()).id();
            jdbc.update("""
                    INSERT INTO xmpp_outbox (id, kind, item_id, source_id, user_id, link_id, payload, due_at, created_at, in_doubt)
                    VALUES (?, 'publish', ?, ?, 0, 0, NULL, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), TRUE)
                    """, ids.next(), Long.parseLong(redone), sourceId);
            String last = post(api, gina, "last");
            Await.until("the last post arrived", () -> reader.ids("publish", node).contains(last));
            assertThat(reader.ids("publish", node)).containsOnlyOnce(redone);
        }
    }

    @Test
    void itemsAFilterRuleStarsReachALinkThatAskedForStarred() throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser ivy = api.newUser("xivy");
        TestUser jack = api.newUser("xjack");
        try (XmppTestClient ivys = XmppTestClient.signUp(prosody, "ivy")) {
            linkAndProve(api, ivy, ivys);
            assertThat(api.send("PUT", "/api/v1/me/xmpp/delivery", ivy.token(), Map.of("deliver", "starred"), "application/json")
                    .status()).isEqualTo(200);
            assertThat(api.post("/api/v1/rules", ivy.token(), Map.of("action", "star", "pattern", "STARME")).status()).isEqualTo(201);
            String groupId = api.post("/api/v1/groups", ivy.token(), Map.of("name", "ivy's open", "open", true)).json().path("id")
                    .asString();
            groups.addMember(Long.parseLong(groupId), jack.numericId());

            String plain = groupPost(api, jack, groupId, "just news");
            String ruled = groupPost(api, jack, groupId, "STARME now");
            Await.until("the rule's star reached ivy's client", () -> ivys.ids("publish", PublicNodes.HOME).contains(ruled));
            // A hand star afterwards: once it arrived, the unstarred post had every chance to.
            String byHand = groupPost(api, jack, groupId, "starred by hand");
            Await.until("the post fanned out to ivy", () -> inHome(api, ivy, byHand));
            assertThat(api.send("POST", "/api/v1/items/" + byHand + "/star", ivy.token(), null, "application/json").status())
                    .isIn(200, 204);
            Await.until("the hand star reached ivy's client", () -> ivys.ids("publish", PublicNodes.HOME).contains(byHand));
            assertThat(ivys.ids("publish", PublicNodes.HOME)).containsOnlyOnce(ruled).doesNotContain(plain);
        }
    }

    @Test
    void aPasswordChangeEndsPushWithWhatWasWaiting() throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser kim = api.newUser("xkim");
        TestUser lou = api.newUser("xlou");
        try (XmppTestClient kims = XmppTestClient.signUp(prosody, "kim")) {
            linkAndProve(api, kim, kims);
            String groupId = api.post("/api/v1/groups", kim.token(), Map.of("name", "kim's open", "open", true)).json().path("id")
                    .asString();
            groups.addMember(Long.parseLong(groupId), lou.numericId());
            String first = groupPost(api, lou, groupId, "reaches kim");
            Await.until("kim's client received the first post", () -> kims.ids("publish", PublicNodes.HOME).contains(first));

            // The publisher away: what fans out now waits in the outbox.
            appPublisher.stop();
            String waiting;
            try {
                waiting = groupPost(api, lou, groupId, "waits in the outbox");
                Await.until("the waiting post's notification is in the outbox", () -> notificationsWaiting(kim) > 0);
                ApiResponse changed = api.post("/api/v1/me/password", kim.token(),
                        Map.of("current_password", kim.password(), "new_password", "a-new-password-1"));
                assertThat(changed.status()).as(changed.toString()).isEqualTo(204);
                assertThat(notificationsWaiting(kim)).isZero();
            } finally {
                appPublisher.start();
            }
            assertThat(api.get("/api/v1/me/xmpp", kim.token()).status()).isEqualTo(404);
            String later = groupPost(api, lou, groupId, "after the change");
            Await.until("the later post fanned out", () -> inHome(api, kim, later));
            // Lou's own node, as a sentinel: once its post reached kim, every row written before had its turn.
            String lousNode = "tributary/people/" + lou.id();
            post(api, lou, "lou is here");
            Await.until("lou's node made", () -> exists(kims, lousNode));
            kims.subscribe(lousNode);
            String sentinel = post(api, lou, "sentinel");
            Await.until("the sentinel reached kim", () -> kims.ids("publish", lousNode).contains(sentinel));
            assertThat(kims.ids("publish", PublicNodes.HOME)).containsOnlyOnce(first).doesNotContain(waiting, later);
        }
    }

    private int notificationsWaiting(TestUser user) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM xmpp_outbox WHERE kind = 'notify' AND user_id = ?", Integer.class,
                user.numericId());
    }

    @Test
    void hostileAddressesOversizeBodiesAndGuessedCodesAreRefused() throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser henry = api.newUser("xhenry");
        for (String bad : List.of("", "no-at-sign", "user@", "@example.org", "user@example.org/resource", "a@b@example.org",
                "<script>@example.org", "user name@example.org", "user\u0000@example.org", "user@.example.org",
                "user@example..org", "user@exa mple.org", "x".repeat(495) + "@example.org", "user@exam\nple.org")) {
            ApiResponse refused = api.post("/api/v1/me/xmpp", henry.token(), Map.of("address", bad));
            assertThat(refused.status()).as("%s: %s", bad, refused).isEqualTo(400);
            assertThat(refused.header("Content-Type")).contains("application/problem+json");
        }
        ApiResponse oversize = api.post("/api/v1/me/xmpp", henry.token(), Map.of("address", "a".repeat(100_000) + "@example.org"));
        assertThat(oversize.status()).isIn(400, 413);
        assertThat(api.get("/api/v1/me/xmpp", henry.token()).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/me/xmpp/confirm", henry.token(), Map.of("code", "ABCDEFGH")).status()).isEqualTo(404);
        assertThat(api.send("PUT", "/api/v1/me/xmpp/delivery", henry.token(), Map.of("deliver", "everything"), "application/json")
                .status()).isEqualTo(400);

        try (XmppTestClient henrys = XmppTestClient.signUp(prosody, "henry")) {
            assertThat(api.post("/api/v1/me/xmpp", henry.token(), Map.of("address", "Henry@LOCALHOST")).status()).isEqualTo(201);
            String code = awaitCode(henrys);
            for (int i = 0; i < settings.codeAttempts() - 1; i++) {
                assertThat(api.post("/api/v1/me/xmpp/confirm", henry.token(), Map.of("code", "WRONG" + i)).status()).isEqualTo(422);
            }
            assertThat(api.post("/api/v1/me/xmpp/confirm", henry.token(), Map.of("code", "WRONGLAST")).status()).isEqualTo(429);
            // Spent: even the right code no longer proves the address.
            assertThat(api.post("/api/v1/me/xmpp/confirm", henry.token(), Map.of("code", code)).status()).isEqualTo(429);
            JsonNode link = api.get("/api/v1/me/xmpp", henry.token()).json();
            assertThat(link.path("verified").asBoolean()).isFalse();
            assertThat(link.path("address").asString()).isEqualTo("henry@localhost");
            assertThat(api.send("PUT", "/api/v1/me/xmpp/delivery", henry.token(), Map.of("deliver", "folder", "folder_id", "999"),
                    "application/json").status()).isEqualTo(404);
        }
    }

    private static String awaitCode(XmppTestClient client) {
        java.util.regex.Pattern codePattern = java.util.regex.Pattern.compile("code is ([A-Z2-9]{8})");
        Await.until("the code reached " + client.address(),
                () -> client.chats().stream().anyMatch(chat -> codePattern.matcher(chat).find()));
        String chat = client.chats().stream().filter(c -> codePattern.matcher(c).find()).reduce((a, b) -> b).orElseThrow();
        Matcher matcher = codePattern.matcher(chat);
        assertThat(matcher.find()).isTrue();
        return matcher.group(1);
    }

    private static void linkAndProve(ApiClient api, TestUser user, XmppTestClient client) {
        ApiResponse linked = api.post("/api/v1/me/xmpp", user.token(), Map.of("address", client.address()));
        assertThat(linked.status()).as(linked.toString()).isEqualTo(201);
        assertThat(linked.json().path("verified").asBoolean()).isFalse();
        String code = awaitCode(client);
        ApiResponse proved = api.post("/api/v1/me/xmpp/confirm", user.token(), Map.of("code", code));
        assertThat(proved.status()).as(proved.toString()).isEqualTo(200);
        assertThat(proved.json().path("verified").asBoolean()).isTrue();
    }

    private static boolean exists(XmppTestClient client, String node) throws Exception {
        try {
            client.pubsub().getLeafNode(node);
            return true;
        } catch (XMPPException.XMPPErrorException e) {
            return false;
        }
    }

    private static boolean subscribes(XmppTestClient client, String node) throws Exception {
        try {
            client.subscribe(node);
            return true;
        } catch (XMPPException.XMPPErrorException e) {
            return false;
        }
    }

    private static boolean inHome(ApiClient api, TestUser user, String itemId) {
        JsonNode home = api.get("/api/v1/timelines/home", user.token()).json();
        return StreamSupport.stream(home.spliterator(), false).anyMatch(item -> item.path("id").asString().equals(itemId));
    }

    private static String post(ApiClient api, TestUser user, String text) {
        ApiResponse posted = api.post("/api/v1/posts", user.token(), Map.of("text", text));
        assertThat(posted.status()).as(posted.toString()).isEqualTo(201);
        return posted.json().path("id").asString();
    }

    private static String groupPost(ApiClient api, TestUser user, String groupId, String text) {
        ApiResponse posted = api.post("/api/v1/groups/" + groupId + "/posts", user.token(), Map.of("text", text));
        assertThat(posted.status()).as(posted.toString()).isEqualTo(201);
        return posted.json().path("id").asString();
    }

    private static NewItem entry(String guid, String title) {
        return new NewItem(guid, title, null, "https://example.org/" + guid, null, MediaType.LINK, List.of(), List.of(),
                java.time.Instant.parse("2026-11-01T00:00:00Z"));
    }

    private static String atomId(String entry) {
        Matcher id = java.util.regex.Pattern.compile("<id[^>]*>([^<]+)</id>").matcher(entry);
        assertThat(id.find()).as(entry).isTrue();
        return ">" + id.group(1) + "</id>";
    }

    @SafeVarargs
    private static List<String> concat(List<String>... lists) {
        List<String> all = new ArrayList<>();
        for (List<String> list : lists) {
            all.addAll(list);
        }
        return all;
    }
}
