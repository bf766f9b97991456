package dev.tributary.api.bench;

import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.pubsub.bench.Bench;
import java.io.IOException;
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
import java.util.ArrayList;
import java.util.List;

/** Signs seeded people in through the sign-in form, as browsers do, for the web benchmark's session requests. */
final class WebSignIn {

    private WebSignIn() {
    }

    /** One {@code Cookie:} header line per signed-in person, the first {@code count} of {@link HttpSeed}'s people. */
    static List<String> cookies(int port, int count, String cookieName) {
        long began = System.nanoTime();
        List<String> lines = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            lines.add("Cookie: " + cookieName + "=" + signIn(port, Bench.format("bench_%06d", i), cookieName));
        }
        System.out.println(Bench.format("signed %,d people in through the form in %.1f s", count,
                (System.nanoTime() - began) / 1e9));
        return lines;
    }

    private static String signIn(int port, String username, String cookieName) {
        CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
        try (HttpClient http = HttpClient.newBuilder().cookieHandler(cookies).version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).build()) {
            URI login = URI.create("http://127.0.0.1:" + port + "/login");
            String form = http.send(HttpRequest.newBuilder(login).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            String csrf = OAuthFlow.hiddenField(form, "_csrf").orElseThrow(() -> new IllegalStateException("no _csrf on /login"));
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(login).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("username=" + username + "&password=bench-password&_csrf="
                            + URLEncoder.encode(csrf, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 302 || answer.headers().firstValue("Location").orElse("").contains("error")) {
                throw new IllegalStateException("sign-in of " + username + " failed: " + answer.statusCode() + " "
                        + answer.headers().firstValue("Location").orElse(""));
            }
            return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(cookieName))
                    .map(HttpCookie::getValue).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no " + cookieName + " cookie after signing in " + username));
        } catch (IOException e) {
            throw new IllegalStateException("sign-in of " + username + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
