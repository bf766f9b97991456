package dev.tributary.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A browser as plain HTTP: a cookie jar, redirects returned rather than followed, the sign-in
 * form, and the requests the web front end's scripts make (the session cookie, the page's CSRF
 * token). The OAuth flow's browser, the session tests and the web benchmark all sign in with it.
 */
public final class BrowserSession {

    private static final Pattern CSRF_META = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\"");

    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .cookieHandler(cookies).followRedirects(HttpClient.Redirect.NEVER).build();
    private final String base;

    public BrowserSession(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    /** A new browser signed in as {@code user} through the sign-in form, landed on the home page. */
    public static BrowserSession signedIn(int port, TestUser user) {
        BrowserSession browser = new BrowserSession(port);
        ApiResponse answer = browser.signIn(user.username(), user.password());
        assertThat(OAuthFlow.isRedirectTo(answer, "/")).as(answer.toString()).isTrue();
        return browser;
    }

    /** The same browser (its cookies) talking to another node. */
    public BrowserSession on(int port) {
        BrowserSession other = new BrowserSession(port);
        cookies.getCookieStore().getCookies().forEach(cookie -> other.cookies.getCookieStore().add(URI.create(other.base), cookie));
        return other;
    }

    /** Opens the sign-in form and submits it, as a person does; returns the form's answer (a redirect). */
    public ApiResponse signIn(String username, String password) {
        ApiResponse page = get("/login");
        assertThat(page.status()).as(page.toString()).isEqualTo(200);
        return postForm("/login", List.of(Map.entry("username", username), Map.entry("password", password),
                Map.entry("_csrf", OAuthFlow.hiddenField(page.body(), "_csrf").orElseThrow())));
    }

    /** The CSRF token a signed-in page hands its script. */
    public String csrfToken() {
        ApiResponse home = get("/");
        assertThat(home.status()).as(home.toString()).isEqualTo(200);
        Matcher meta = CSRF_META.matcher(home.body());
        assertThat(meta.find()).as("csrf meta tag in %s", home.body()).isTrue();
        return meta.group(1);
    }

    public @Nullable String cookie(String name) {
        return cookies.getCookieStore().getCookies().stream().filter(cookie -> cookie.getName().equals(name))
                .map(HttpCookie::getValue).findFirst().orElse(null);
    }

    /** GET a path on this node or an absolute URL. */
    public ApiResponse get(String pathOrUrl) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl)).GET());
    }

    /** POST a form; values repeat for repeated names. */
    public ApiResponse postForm(String path, List<Map.Entry<String, String>> fields) {
        String body = fields.stream().map(field -> encode(field.getKey()) + "=" + encode(field.getValue()))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "text/html")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A JSON request; {@code headers} are name, value pairs. */
    public ApiResponse send(String method, String path, @Nullable String json, String... headers) {
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

    public ApiResponse send(HttpRequest.Builder request) {
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

    /** A path on this node, or an absolute URL as given. */
    public URI uri(String pathOrUrl) {
        return URI.create(pathOrUrl.startsWith("/") ? base + pathOrUrl : pathOrUrl);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
