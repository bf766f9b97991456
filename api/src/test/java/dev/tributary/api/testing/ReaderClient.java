package dev.tributary.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** Calls the Google Reader API the way the apps do: form posts, the GoogleLogin header, raw query strings. */
public final class ReaderClient {

    private final ApiClient api;

    public ReaderClient(ApiClient api) {
        this.api = api;
    }

    /** Signs in and returns the Auth value (from the text answer). */
    public String login(String email, String passwd) {
        ApiResponse answer = clientLogin(List.of(Map.entry("Email", email), Map.entry("Passwd", passwd)));
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        String auth = answer.body().lines().filter(line -> line.startsWith("Auth=")).findFirst().orElseThrow().substring(5);
        assertThat(auth).isNotBlank();
        return auth;
    }

    public ApiResponse clientLogin(List<Map.Entry<String, String>> form) {
        return api.send(api.builder("/accounts/ClientLogin", null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(encode(form))));
    }

    public ApiResponse get(String pathAndQuery, @Nullable String auth) {
        HttpRequest.Builder request = api.builder(pathAndQuery, null).GET();
        if (auth != null) {
            request.header("Authorization", "GoogleLogin auth=" + auth);
        }
        return api.send(request);
    }

    public ApiResponse post(String path, @Nullable String auth, List<Map.Entry<String, String>> form) {
        HttpRequest.Builder request = api.builder(path, null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(encode(form)));
        if (auth != null) {
            request.header("Authorization", "GoogleLogin auth=" + auth);
        }
        return api.send(request);
    }

    /** A POST that must answer 200. */
    public ApiResponse ok(String path, String auth, List<Map.Entry<String, String>> form) {
        ApiResponse answer = post(path, auth, form);
        assertThat(answer.status()).as(path + " " + answer).isEqualTo(200);
        return answer;
    }

    /** A GET that must answer 200. */
    public ApiResponse ok(String pathAndQuery, String auth) {
        ApiResponse answer = get(pathAndQuery, auth);
        assertThat(answer.status()).as(pathAndQuery + " " + answer).isEqualTo(200);
        return answer;
    }

    public static String encode(List<Map.Entry<String, String>> form) {
        return form.stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }

    public static String hexId(long id) {
        return String.format("%016x", id);
    }

    public static String longId(long id) {
        return "tag:google.com,2005:reader/item/" + hexId(id);
    }
}
