package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.OAuthFlow;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A browser as plain HTTP: a cookie jar, redirects returned rather than followed, and the
 * requests the web front end's scripts make (the session cookie, the page's CSRF token).
 */
final class BrowserSession {

    private static final Pattern CSRF_META = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\"");

    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER).build();
    private final String base;

    BrowserSession(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    /** The same browser (its cookies) talking to another node. */
    BrowserSession on(int port) {
        BrowserSession other = new BrowserSession(port);
        cookies.getCookieStore().getCookies().forEach(cookie -> other.cookies.getCookieStore().add(URI.create(other.base), cookie));
        return other;
    }

    /** Signs in with the form, as a person does; returns the form's answer. */
    ApiResponse signIn(String username, String password) {
        ApiResponse page = get("/login");
        assertThat(page.status()).as(page.toString()).isEqualTo(200);
        String csrf = OAuthFlow.hiddenField(page.body(), "_csrf").orElseThrow();
        return send(HttpRequest.newBuilder(uri("/login")).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=" + username + "&password=" + password + "&_csrf=" + csrf)));
    }

    /** The CSRF token a signed-in page hands its script. */
    String csrfToken() {
        ApiResponse home = get("/");
        assertThat(home.status()).as(home.toString()).isEqualTo(200);
        Matcher meta = CSRF_META.matcher(home.body());
        assertThat(meta.find()).as("csrf meta tag in %s", home.body()).isTrue();
        return meta.group(1);
    }

    @Nullable String cookie(String name) {
        return cookies.getCookieStore().getCookies().stream().filter(cookie -> cookie.getName().equals(name))
                .map(HttpCookie::getValue).findFirst().orElse(null);
    }

    ApiResponse get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    /** A JSON request; {@code headers} are name, value pairs. */
    ApiResponse send(String method, String path, @Nullable String json, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).method(method,
                json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (headers.length > 0) {
            request.headers(headers);
        }
        return send(request);
    }

    ApiResponse send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new ApiResponse(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private URI uri(String path) {
        return URI.create(base + path);
    }
}
