package dev.tributary.api.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The {@code Link} header built by hand is the one {@code ServletUriComponentsBuilder} built from
 * the same request: scheme, host, port, path and the other parameters as sent, paging replaced.
 */
class PageLinksTest {

    private static final List<Long> PAGE = List.of(900L, 850L, 801L);

    private static MockHttpServletRequest request(String scheme, String host, int port, String path, String query) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", path);
        request.setScheme(scheme);
        request.setServerName(host);
        request.setServerPort(port);
        request.setQueryString(query);
        return request;
    }

    /** What the header was when the builder made it. */
    private static String asTheBuilderMadeIt(MockHttpServletRequest request) {
        UriComponentsBuilder base = ServletUriComponentsBuilder.fromRequest(request)
                .replaceQueryParam("max_id").replaceQueryParam("since_id").replaceQueryParam("min_id");
        return "<" + base.cloneBuilder().replaceQueryParam("max_id", Ids.format(801)).build().toUriString() + ">; rel=\"next\", <"
                + base.replaceQueryParam("min_id", Ids.format(900)).build().toUriString() + ">; rel=\"prev\"";
    }

    @Test
    void theHeaderIsTheBuildersForEveryShapeOfRequest() {
        List<MockHttpServletRequest> requests = List.of(
                request("http", "localhost", 8080, "/api/v1/timelines/home", "limit=50"),
                request("https", "feeds.example.test", 443, "/api/v1/timelines/home", null),
                request("http", "feeds.example.test", 80, "/api/v1/timelines/home", "max_id=5&limit=20&since_id=3"),
                request("https", "feeds.example.test", 8443, "/api/v1/timelines/home", "min_id=9"),
                request("http", "127.0.0.1", 80, "/api/v1/timelines/home", "tag=caf%C3%A9&media=photo&limit=10"),
                request("http", "localhost", 8080, "/api/v1/timelines/home", "a=1&&unread&b=&max_id=7&"),
                request("http", "localhost", 8080, "/api/v1/users/ann%20e/items", "limit=5"),
                request("https", "feeds.example.test", 80, "/api/v1/stars", "limit=5"));
        for (MockHttpServletRequest request : requests) {
            assertThat(PageLinks.header(request, PAGE)).as(request.getRequestURL() + "?" + request.getQueryString())
                    .isEqualTo(asTheBuilderMadeIt(request));
        }
    }

    @Test
    void aLongQueryOfPairsWithoutValuesIsTheBuildersToo() {
        // Thousands of valueless pairs, then one with a value: each name is found within its own pair.
        String query = "x&".repeat(3000) + "limit=5&max_id=2&y";
        MockHttpServletRequest request = request("http", "localhost", 8080, "/api/v1/timelines/home", query);
        assertThat(PageLinks.header(request, PAGE)).isEqualTo(asTheBuilderMadeIt(request)).doesNotContain("max_id=2");
    }

    @Test
    void repeatedParametersKeepTheOrderTheyWereSentIn() {
        MockHttpServletRequest request = request("http", "localhost", 8080, "/api/v1/timelines/home",
                "media=photo&limit=5&media=video&max_id=3");
        assertThat(PageLinks.header(request, PAGE)).isEqualTo(
                "<http://localhost:8080/api/v1/timelines/home?media=photo&limit=5&media=video&max_id=801>; rel=\"next\", "
                        + "<http://localhost:8080/api/v1/timelines/home?media=photo&limit=5&media=video&min_id=900>; rel=\"prev\"");
    }
}
