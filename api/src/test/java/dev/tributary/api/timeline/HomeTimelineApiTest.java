package dev.tributary.api.timeline;

import static dev.tributary.api.timeline.Deliveries.entry;
import static dev.tributary.api.timeline.Deliveries.ids;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@ApiTest
class HomeTimelineApiTest {

    private static final Pattern LINK = Pattern.compile("<([^>]+)>; rel=\"(next|prev)\"");

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    @Test
    void pagesNewestFirstWithNextAndPrevLinks() {
        TestUser alice = api.newUser("home");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        List<Long> published = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT), entry(MediaType.TEXT),
                entry(MediaType.TEXT), entry(MediaType.TEXT), entry(MediaType.TEXT));
        List<String> newestFirst = published.reversed().stream().map(String::valueOf).toList();

        ApiResponse first = api.get("/api/v1/timelines/home?limit=2", alice.token());

        assertThat(first.status()).isEqualTo(200);
        assertThat(ids(first.json())).containsExactlyElementsOf(newestFirst.subList(0, 2));
        JsonNode item = first.json().get(0);
        assertThat(item.path("source").path("id").asString()).isEqualTo(String.valueOf(feed));
        assertThat(item.path("source").path("kind").asString()).isEqualTo("feed");
        assertThat(item.path("media_type").asString()).isEqualTo("text");
        assertThat(item.path("read").asBoolean()).isFalse();
        assertThat(item.path("likes_count").asLong()).isZero();
        assertThat(item.path("comments_count").asLong()).isZero();
        assertThat(item.path("published_at").asString()).endsWith("Z");

        ApiResponse second = api.get(path(link(first, "next")), alice.token());
        assertThat(ids(second.json())).containsExactlyElementsOf(newestFirst.subList(2, 4));
        assertThat(link(first, "next")).contains("limit=2").contains("max_id=" + newestFirst.get(1));

        ApiResponse back = api.get(path(link(second, "prev")), alice.token());
        assertThat(ids(back.json())).containsExactlyElementsOf(newestFirst.subList(0, 2));

        ApiResponse last = api.get(path(link(second, "next")), alice.token());
        assertThat(ids(last.json())).containsExactly(newestFirst.get(4));
        ApiResponse end = api.get(path(link(last, "next")), alice.token());
        assertThat(end.json().size()).isZero();
        assertThat(end.header("Link")).isNull();
    }

    @Test
    void filtersByMediaSourceTagAndUnread() {
        TestUser bob = api.newUser("filter");
        long news = deliveries.feed();
        long photos = deliveries.feed();
        deliveries.follow(bob, news);
        deliveries.follow(bob, photos);
        List<Long> text = deliveries.deliver(news, List.of(bob), entry(MediaType.TEXT, "java"), entry(MediaType.LINK));
        List<Long> image = deliveries.deliver(photos, List.of(bob), entry(MediaType.IMAGE, "Java"), entry(MediaType.VIDEO));

        assertThat(ids(api.get("/api/v1/timelines/home?media=image", bob.token()).json()))
                .containsExactly(String.valueOf(image.get(0)));
        assertThat(ids(api.get("/api/v1/timelines/home?media=text,image", bob.token()).json()))
                .containsExactly(String.valueOf(image.get(0)), String.valueOf(text.get(0)));
        assertThat(ids(api.get("/api/v1/timelines/home?source_id=" + news, bob.token()).json()))
                .containsExactly(String.valueOf(text.get(1)), String.valueOf(text.get(0)));
        assertThat(ids(api.get("/api/v1/timelines/home?tag=java", bob.token()).json()))
                .containsExactly(String.valueOf(image.get(0)), String.valueOf(text.get(0)));

        assertThat(api.post("/api/v1/items/" + image.get(1) + "/read", bob.token(), null).status()).isEqualTo(204);
        assertThat(ids(api.get("/api/v1/timelines/home?unread=true&source_id=" + photos, bob.token()).json()))
                .containsExactly(String.valueOf(image.get(0)));
        assertThat(ids(api.get("/api/v1/timelines/home?unread=false&source_id=" + photos, bob.token()).json())).hasSize(2);
        ApiResponse filtered = api.get("/api/v1/timelines/home?media=image,video&limit=1", bob.token());
        assertThat(link(filtered, "next")).contains("media=image,video").contains("limit=1");
    }

    @Test
    void anotherPersonsItemsNeverShow() {
        TestUser alice = api.newUser("mine");
        TestUser eve = api.newUser("eve");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        List<Long> ids = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT));

        assertThat(api.get("/api/v1/timelines/home", eve.token()).json().size()).isZero();
        assertThat(api.get("/api/v1/timelines/home?source_id=" + feed, eve.token()).json().size()).isZero();
        assertThat(deliveries.timelineIds(alice)).containsAll(ids);
    }

    @Test
    void aPageCarriesAWeakETagThatChangesWithItsContent() {
        TestUser carol = api.newUser("etag");
        long feed = deliveries.feed();
        deliveries.follow(carol, feed);
        List<Long> ids = deliveries.deliver(feed, List.of(carol), entry(MediaType.TEXT), entry(MediaType.TEXT));

        ApiResponse first = api.get("/api/v1/timelines/home", carol.token());
        String etag = first.header("ETag");
        assertThat(etag).startsWith("W/\"");

        ApiResponse same = conditional(carol, etag);
        assertThat(same.status()).isEqualTo(304);
        assertThat(same.body()).isEmpty();
        assertThat(same.header("ETag")).isEqualTo(etag);
        assertThat(conditional(carol, "\"other\", " + etag.substring(2)).status()).as("strong form, in a list").isEqualTo(304);

        api.post("/api/v1/items/" + ids.getFirst() + "/read", carol.token(), null);
        ApiResponse afterRead = conditional(carol, etag);
        assertThat(afterRead.status()).isEqualTo(200);
        String readTag = afterRead.header("ETag");
        assertThat(readTag).isNotEqualTo(etag);

        api.post("/api/v1/items/" + ids.getFirst() + "/like", carol.token(), null);
        String likedTag = conditional(carol, readTag).header("ETag");
        assertThat(likedTag).isNotEqualTo(readTag);

        api.post("/api/v1/items/" + ids.getLast() + "/comments", carol.token(), Map.of("text", "hi"));
        String commentedTag = conditional(carol, likedTag).header("ETag");
        assertThat(commentedTag).isNotEqualTo(likedTag);

        List<Long> more = deliveries.deliver(feed, List.of(carol), entry(MediaType.TEXT));
        ApiResponse newer = conditional(carol, commentedTag);
        assertThat(newer.status()).isEqualTo(200);
        assertThat(ids(newer.json())).startsWith(String.valueOf(more.getFirst()));
        assertThat(api.get("/api/v1/timelines/home?limit=1", carol.token()).header("ETag"))
                .as("another page, another tag").isNotEqualTo(newer.header("ETag"));
    }

    @Test
    void badParametersAreProblemsNamingThem() {
        TestUser dan = api.newUser("badparam");

        assertInvalid(dan, "media=text,pdf", "media");
        assertInvalid(dan, "unread=yes", "unread");
        assertInvalid(dan, "limit=0", "limit");
        assertInvalid(dan, "limit=101", "limit");
        assertInvalid(dan, "limit=ten", "limit");
        assertInvalid(dan, "max_id=-5", "max_id");
        assertInvalid(dan, "since_id=12abc", "since_id");
        assertInvalid(dan, "min_id=99999999999999999999", "min_id");
        assertInvalid(dan, "source_id=feed", "source_id");
        assertInvalid(dan, "tag=" + "t".repeat(101), "tag");
        assertThat(api.get("/api/v1/timelines/home?media=&unread=false", dan.token()).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/timelines/home", null).status()).isEqualTo(401);
        assertThat(api.post("/api/v1/timelines/home", dan.token(), null).status()).isEqualTo(405);
    }

    private void assertInvalid(TestUser user, String query, String field) {
        ApiResponse response = api.get("/api/v1/timelines/home?" + query, user.token());
        assertThat(response.status()).as(query).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().path("errors").findValuesAsString("field")).as(query).containsExactly(field);
    }

    private ApiResponse conditional(TestUser user, String ifNoneMatch) {
        HttpRequest.Builder request = api.builder("/api/v1/timelines/home", user.token()).header("If-None-Match", ifNoneMatch).GET();
        return api.send(request);
    }

    private static String link(ApiResponse response, String rel) {
        Matcher matcher = LINK.matcher(response.header("Link"));
        while (matcher.find()) {
            if (matcher.group(2).equals(rel)) {
                return matcher.group(1);
            }
        }
        throw new AssertionError("no " + rel + " link in " + response.header("Link"));
    }

    private static String path(String url) {
        return url.substring(url.indexOf("/api/"));
    }
}
