package dev.tributary.api.bench;

import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.BrowserSession;
import dev.tributary.pubsub.bench.Bench;
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
        BrowserSession browser = new BrowserSession(port);
        ApiResponse answer = browser.signIn(username, "bench-password");
        String location = answer.header("Location");
        String cookie = browser.cookie(cookieName);
        if (answer.status() != 302 || location == null || location.contains("error") || cookie == null) {
            throw new IllegalStateException("sign-in of " + username + " failed: " + answer);
        }
        return cookie;
    }
}
