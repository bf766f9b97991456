package dev.tributary.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The browsable reference at {@code /docs/api}: springdoc's Swagger UI, served under the site's
 * Content-Security-Policy. Its page may only load scripts and styles from files of its own
 * origin (no inline script or style element, which the policy would block), every one of
 * which must load, and its configuration must point at the OpenAPI document.
 */
@ApiTest
class SwaggerUiTest {

    @LocalServerPort int port;
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void theReferenceIsServedWithAssetsThePolicyAllows() throws Exception {
        HttpResponse<String> page = get("/docs/api");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        String policy = page.headers().firstValue("Content-Security-Policy").orElse("");
        assertThat(policy).contains("script-src 'self'").contains("style-src 'self'");
        Document html = Jsoup.parse(page.body(), page.uri().toString());
        assertThat(html.select("script:not([src])")).as("inline scripts the policy blocks").allMatch(s -> s.data().isBlank());
        assertThat(html.select("style")).as("inline styles the policy blocks").isEmpty();
        assertThat(html.select("[style]")).as("style attributes the policy blocks").isEmpty();

        List<String> assets = new ArrayList<>();
        html.select("script[src]").forEach(script -> assets.add(script.absUrl("src")));
        html.select("link[rel=stylesheet]").forEach(link -> assets.add(link.absUrl("href")));
        assertThat(assets).anyMatch(a -> a.endsWith("swagger-ui-bundle.js")).anyMatch(a -> a.endsWith("swagger-initializer.js"));
        for (String asset : assets) {
            assertThat(URI.create(asset).getAuthority()).as(asset + " is served by us").isEqualTo("127.0.0.1:" + port);
            HttpResponse<String> loaded = get(URI.create(asset).getRawPath());
            assertThat(loaded.statusCode()).as(asset).isEqualTo(200);
            assertThat(loaded.body()).as(asset).isNotEmpty();
        }

        String initializer = get(path(html, "swagger-initializer.js")).body();
        assertThat(initializer).contains("/v3/api-docs/swagger-config");
        HttpResponse<String> config = get("/v3/api-docs/swagger-config");
        assertThat(config.statusCode()).isEqualTo(200);
        assertThat(config.body()).contains("\"/v3/api-docs\"");
    }

    private static String path(Document html, String file) {
        for (Element script : html.select("script[src]")) {
            if (script.absUrl("src").endsWith(file)) {
                return URI.create(script.absUrl("src")).getRawPath();
            }
        }
        throw new AssertionError("no " + file);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(20))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
