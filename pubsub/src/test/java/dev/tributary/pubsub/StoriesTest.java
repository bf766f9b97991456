package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StoriesTest {

    @Test
    void spellingsOfOneLinkAreOneStory() {
        Long story = Stories.of("https://blog.example/2026/11/post", "g");
        assertThat(story).isNotNull();
        for (String same : new String[] {
                "http://blog.example/2026/11/post",
                "https://BLOG.Example/2026/11/post/",
                "https://blog.example:443/2026/11/post",
                "http://blog.example:80/2026/11/post#comments",
                "https://blog.example./2026/11/post",
                "https://blog.example/2026/11/post?utm_source=rss&utm_medium=feed&UTM_Campaign=x",
                "https://blog.example/2026/11/post?fbclid=abc&gclid=def&mc_cid=1&mc_eid=2",
                " https://blog.example/2026/11/post "}) {
            assertThat(Stories.of(same, "other-guid")).as(same).isEqualTo(story);
        }
        assertThat(Stories.of(null, "https://blog.example/2026/11/post/")).as("the guid, when it is a URL").isEqualTo(story);
    }

    @Test
    void whatSaysWhichPageStaysAndOrderDoesNotMatter() {
        assertThat(Stories.of("https://a.example/p?id=1", "g")).isNotEqualTo(Stories.of("https://a.example/p?id=2", "g"))
                .isNotEqualTo(Stories.of("https://a.example/p", "g"));
        assertThat(Stories.of("https://a.example/p?b=2&a=1&utm_x=3", "g")).isEqualTo(Stories.of("https://a.example/p?a=1&b=2", "g"));
        assertThat(Stories.of("https://a.example:8443/p", "g")).isNotEqualTo(Stories.of("https://a.example/p", "g"));
        assertThat(Stories.of("https://a.example/P", "g")).as("paths are case-sensitive").isNotEqualTo(Stories.of("https://a.example/p", "g"));
        assertThat(Stories.of("https://a.example/", "g")).isEqualTo(Stories.of("https://a.example", "g"));
    }

    @Test
    void entriesWithoutAnHttpLinkOrUrlGuidHaveNoStory() {
        assertThat(Stories.of(null, "tag:blog.example,2026:post-1")).isNull();
        assertThat(Stories.of("ftp://a.example/file", "urn:uuid:1")).isNull();
        assertThat(Stories.of("javascript:alert(1)", "1234")).isNull();
        assertThat(Stories.of("/relative/path", "g")).isNull();
        assertThat(Stories.of("https://a b.example/<>", "g")).as("not a URI").isNull();
        assertThat(Stories.of("https://a.example/" + "x".repeat(Stories.MAX_LINK), "g")).as("oversize").isNull();
        assertThat(Stories.of("", "   ")).isNull();
    }
}
