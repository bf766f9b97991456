package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.VideoPlayers;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.storage.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue 47: a post's video player (an allow-listed embed the crawler keeps) reaches the reader's
 * page as a sandboxed frame, and nothing else framed does: the browser's own sanitiser keeps the
 * same players, and the page's CSP frames only their hosts.
 */
@BrowserTest
class VideoEmbedBrowserTest {

    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();

    @LocalServerPort int port;

    @Test
    void aPostsYouTubePlayerShowsSandboxedAndNoOtherFrame(Browser browser) throws Exception {
        ApiClient api = new ApiClient(port);
        TestUser alice = api.newUser("video");
        server.feed("/video/feed/", """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
                <channel><title>A video blog</title><link>https://video.example/</link>
                <item><title>Our new video</title><link>https://video.example/new/</link>
                <guid isPermaLink="false">https://video.example/?p=7</guid>
                <description>A video, in short.</description>
                <content:encoded><![CDATA[<p>Watch it here.</p>
                <iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" width="560" height="315" allow="camera"></iframe>
                <iframe src="https://evil.example/embed/x"><p>fallback</p></iframe>
                <p>The end.</p>]]></content:encoded>
                </item></channel></rss>""");
        assertThat(api.post("/api/v1/subscriptions", alice.token(), Map.of("url", server.url("/video/feed/").toString())).status())
                .isIn(200, 201, 202);
        String id = Await.value("the post in the home timeline",
                () -> api.get("/api/v1/timelines/home", alice.token()).json(), timeline -> timeline.size() == 1).get(0)
                .path("id").asString();

        browser.signIn(alice.username(), alice.password());
        browser.open("/items/" + id);
        browser.waitForText(".item-content", "The end.");
        List<WebElement> frames = browser.all(".item-content iframe");
        assertThat(frames).hasSize(1);
        WebElement player = frames.getFirst();
        assertThat(player.getAttribute("src")).isEqualTo("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
        assertThat(player.getAttribute("sandbox")).isEqualTo("allow-scripts allow-same-origin allow-presentation allow-popups");
        assertThat(player.getAttribute("allow")).doesNotContain("camera");
        assertThat(browser.text(".item-content")).doesNotContain("fallback");
    }

    @Test
    void theBrowsersSanitiserDropsFramesThatAreNoPlayer(Browser browser) {
        ApiClient api = new ApiClient(port);
        TestUser bob = api.newUser("frames");
        browser.signIn(bob.username(), bob.password());
        Object kept = browser.asyncScript("""
                const done = arguments[arguments.length - 1];
                import('/js/dom.js').then(dom => {
                    const box = document.createElement('div');
                    box.append(dom.sanitize('<iframe src="https://player.vimeo.com/video/42"></iframe>'
                        + '<iframe src="https://player.vimeo.com:8443/video/42"></iframe>'
                        + '<iframe src="http://www.youtube.com/embed/abc"></iframe>'
                        + '<iframe src="https://www.youtube.com.evil.example/embed/abc"></iframe>'
                        + '<iframe srcdoc="<script>alert(1)</script>" src="https://www.youtube.com/embed/abc"></iframe>'
                        + '<iframe src="javascript:alert(1)"></iframe>'));
                    done([...box.querySelectorAll('iframe')].map(f => f.getAttribute('src') + ' ' + f.hasAttribute('srcdoc')));
                });
                """);
        assertThat(((List<?>) kept).stream().map(String::valueOf).toList()).containsExactly("https://player.vimeo.com/video/42 false",
                "https://www.youtube.com/embed/abc false");
    }

    @Test
    void thePagesFrameSourcesAreThePlayersTheSanitisersKeep() throws Exception {
        HttpResponse<String> page = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).header("Accept", "text/html").build(),
                HttpResponse.BodyHandlers.ofString());
        String policy = page.headers().firstValue("Content-Security-Policy").orElseThrow();
        Matcher frames = Pattern.compile("frame-src ([^;]+);").matcher(policy);
        assertThat(frames.find()).as(policy).isTrue();
        TreeSet<String> framed = new TreeSet<>();
        for (String source : frames.group(1).trim().split(" ")) {
            assertThat(source).startsWith("https://");
            framed.add(source.substring("https://".length()));
        }
        assertThat(framed).isEqualTo(VideoPlayers.hosts());

        String dom = Files.readString(Path.of("src/main/resources/static/js/dom.js"));
        TreeSet<String> inBrowser = new TreeSet<>();
        Matcher hosts = Pattern.compile("\\['([a-z0-9.-]+)', /").matcher(dom);
        while (hosts.find()) {
            inBrowser.add(hosts.group(1));
        }
        assertThat(inBrowser).isEqualTo(VideoPlayers.hosts());
    }
}
