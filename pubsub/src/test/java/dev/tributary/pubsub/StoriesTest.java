package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StoriesTest {

    private static NewItem entry(String guid, String url) {
        return new NewItem(guid, "t", null, url, null, MediaType.TEXT, List.of(), List.of(), Instant.EPOCH);
    }

    private static Map<String, List<Long>> candidates(String siteUrl, NewItem... document) {
        return Stories.candidates(siteUrl, "https://feeds.example/feed.xml", List.of(document), List.of(document));
    }

    @Test
    void spellingsOfOneLinkAreOneStory() {
        Long story = Stories.ofLink("https://blog.example/2026/11/post");
        assertThat(story).isNotNull();
        for (String same : new String[] {
                "http://blog.example/2026/11/post",
                "https://BLOG.Example/2026/11/post/",
                "https://blog.example:443/2026/11/post",
                "http://blog.example:80/2026/11/post#comments",
                "https://blog.example./2026/11/post",
                "https://blog.example/2026/11/post#",
                "https://blog.example/2026/11/post?utm_source=rss&utm_medium=feed&UTM_Campaign=x",
                "https://blog.example/2026/11/post?fbclid=abc&gclid=def&mc_cid=1&mc_eid=2",
                " https://blog.example/2026/11/post "}) {
            assertThat(Stories.ofLink(same)).as(same).isEqualTo(story);
        }
        assertThat(Stories.globalGuid("https://blog.example/2026/11/post/")).as("a permalink guid meets the link")
                .isEqualTo(Stories.canonical("https://blog.example/2026/11/post"));
    }

    @Test
    void whatSaysWhichPageStaysAndOrderDoesNotMatter() {
        assertThat(Stories.ofLink("https://a.example/p?id=1")).isNotEqualTo(Stories.ofLink("https://a.example/p?id=2"))
                .isNotEqualTo(Stories.ofLink("https://a.example/p"));
        assertThat(Stories.ofLink("https://a.example/p?b=2&a=1&utm_x=3")).isEqualTo(Stories.ofLink("https://a.example/p?a=1&b=2"));
        assertThat(Stories.ofLink("https://a.example:8443/p")).isNotEqualTo(Stories.ofLink("https://a.example/p"));
        assertThat(Stories.ofLink("https://a.example/P")).as("paths are case-sensitive").isNotEqualTo(Stories.ofLink("https://a.example/p"));
        assertThat(Stories.ofLink("https://a.example/")).isEqualTo(Stories.ofLink("https://a.example"));
    }

    @Test
    void linksThatAreNoUrlHaveNoStory() {
        assertThat(Stories.ofLink("ftp://a.example/file")).isNull();
        assertThat(Stories.ofLink("javascript:alert(1)")).isNull();
        assertThat(Stories.ofLink("/relative/path")).isNull();
        assertThat(Stories.ofLink("https://a b.example/<>")).as("not a URI").isNull();
        assertThat(Stories.ofLink("https://a.example/" + "x".repeat(Stories.MAX_LINK))).as("oversize").isNull();
        assertThat(Stories.ofLink("")).isNull();
        assertThat(Stories.ofLink(null)).isNull();
    }

    @Test
    void onlyPermalinksTagsAndUrnsAreGuidsEveryFeedUnderstands() {
        assertThat(Stories.globalGuid("tag:blog.example,2026:post-1")).isEqualTo("tag:blog.example,2026:post-1");
        assertThat(Stories.globalGuid("URN:uuid:1b4e28ba")).isEqualTo("urn:uuid:1b4e28ba");
        assertThat(Stories.globalGuid("https://blog.example/?p=42")).isEqualTo("//blog.example?p=42");
        assertThat(Stories.globalGuid("42")).isNull();
        assertThat(Stories.globalGuid("1b4e28ba-2fa1-11d2-883f-0016d3cca427")).isNull();
        assertThat(Stories.globalGuid("sha256:abc")).isNull();
        assertThat(Stories.globalGuid("tag:")).isNull();
    }

    @Test
    void aGlobalGuidIsTheStoryAndThenThePermalink() {
        Map<String, List<Long>> of = candidates("https://blog.example/",
                entry("tag:blog.example,2026:1", "https://blog.example/2026/post-1"), entry("7", "https://blog.example/2026/post-2"),
                entry("https://blog.example/?p=8", "https://feedproxy.example/~r/blog/8"),
                entry("https://blog.example/2026/post-9", "https://blog.example/2026/post-9/"));
        assertThat(of.get("tag:blog.example,2026:1")).containsExactly(Stories.hash("tag:blog.example,2026:1"),
                Stories.ofLink("https://blog.example/2026/post-1"));
        assertThat(of.get("https://blog.example/?p=8")).containsExactly(Stories.ofLink("https://blog.example/?p=8"),
                Stories.ofLink("https://feedproxy.example/~r/blog/8"));
        assertThat(of.get("https://blog.example/2026/post-9")).as("the permalink guid and link are one")
                .containsExactly(Stories.ofLink("https://blog.example/2026/post-9"));
        assertThat(of.get("7")).as("a local guid is no evidence").containsExactly(Stories.ofLink("https://blog.example/2026/post-2"));
    }

    @Test
    void theHomePageTheFeedAndAPageSeveralEntriesLinkAreNoEvidence() {
        Map<String, List<Long>> of = candidates("https://blog.example/",
                entry("1", "http://blog.example"), entry("2", "https://feeds.example/feed.xml"),
                entry("3", "https://blog.example/news"), entry("tag:x,2026:4", "https://blog.example/news/"),
                entry("https://blog.example/", "https://blog.example/"));
        assertThat(of.get("1")).isEmpty();
        assertThat(of.get("2")).isEmpty();
        assertThat(of.get("3")).as("a page two entries link").isEmpty();
        assertThat(of.get("tag:x,2026:4")).containsExactly(Stories.hash("tag:x,2026:4"));
        assertThat(of.get("https://blog.example/")).as("a guid that is the home page").isEmpty();
    }

    @Test
    void anchorsThatTellTheDocumentsEntriesApartAreKept() {
        Map<String, List<Long>> of = candidates(null, entry("a", "https://example.net/changelog#v2-0"),
                entry("b", "https://example.net/changelog#v2-1"), entry("c", "https://example.net/changelog"),
                entry("d", "https://example.net/digest#top"), entry("e", "https://example.net/digest#top"),
                entry("f", "https://example.net/post#comments"));
        assertThat(of.get("a")).containsExactly(Stories.hash("//example.net/changelog#v2-0"));
        assertThat(of.get("b")).containsExactly(Stories.hash("//example.net/changelog#v2-1"));
        assertThat(of.get("c")).containsExactly(Stories.ofLink("https://example.net/changelog"));
        assertThat(of.get("d")).as("one anchor two entries share").isEmpty();
        assertThat(of.get("e")).isEmpty();
        assertThat(of.get("f")).as("an anchor into the page itself").containsExactly(Stories.ofLink("https://example.net/post"));
    }
}
