package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class RedirectUrisTest {

    @ParameterizedTest
    @ValueSource(strings = {"https://app.example/callback", "https://app.example:8443/cb?client=web",
            "http://127.0.0.1/cb", "http://127.0.0.1:51234/oauth", "http://[::1]:8080/cb", "com.example.app:/callback",
            "org.example.reader:callback", "HTTPS://APP.EXAMPLE/CB"})
    void accepts(String uri) {
        assertThat(RedirectUris.problem(uri)).as(uri).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "/callback", "callback", "app.example/cb", "https://app.example/cb#fragment",
            "https://app.example/cb#", "http://app.example/cb", "http://localhost:8080/cb", "http://127.0.0.1.evil.example/cb",
            "http://127.1/cb", "http://0.0.0.0/cb", "http://[::2]/cb", "javascript:alert(1)", "JavaScript:alert(1)",
            "data:text/html,<script>alert(1)</script>", "vbscript:msgbox", "file:///etc/passwd", "myapp:/callback",
            "ftp://app.example/cb", "https:///cb", "https://user:secret@app.example/cb", "https://app.example/a b",
            "https://[bad/cb", "mailto:someone@app.example"})
    void refuses(String uri) {
        assertThat(RedirectUris.problem(uri)).as(uri).isPresent();
    }

    @Test
    void refusesOverlongUris() {
        assertThat(RedirectUris.problem("https://app.example/" + "a".repeat(RedirectUris.MAX_LENGTH))).isPresent();
    }

    @Test
    void anyStringGetsAnAnswerNotAnException() {
        Random random = new Random(42);
        String alphabet = "abc:/?#[]@!$&'()*+,;=%.-_~ 0123456789\\\"<>^`{|}\u0000\u00e9\u202e";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder uri = new StringBuilder(i % 3 == 0 ? "https://" : i % 3 == 1 ? "http://127.0.0.1" : "");
            int length = random.nextInt(40);
            for (int j = 0; j < length; j++) {
                uri.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            RedirectUris.problem(uri.toString());
        }
    }
}
