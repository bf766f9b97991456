package dev.tributary.api.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests strict clients and testers send that the stack itself (Tomcat, Spring MVC, Spring
 * Security, Jackson) answers before any controller: each must be a problem+json 4xx, or be
 * ignored, never a 500 or an HTML page.
 */
@ApiTest
class StackErrorsApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void aQueryParameterWithAnEmptyNameIsA400ProblemNamingTheQuery() {
        TestUser alice = api.newUser("emptyname");
        JsonNode group = api.post("/api/v1/groups", alice.token(), Map.of("name", "empty names")).json();
        String item = api.post("/api/v1/posts", alice.token(), Map.of("text", "hello")).json().path("id").asString();
        String feedToken = api.post("/api/v1/me/feed_token", alice.token(), null).json().path("feed_token").asString();

        for (String path : new String[] {"/api/v1/timelines/home?=", "/api/v1/timelines/home?=&limit=5",
                "/api/v1/timelines/home?unread=true&=x", "/api/v1/users/" + alice.username() + "/feed?=",
                "/api/v1/groups/" + group.path("id").asString() + "/feed?=",
                "/api/v1/groups/" + group.path("id").asString() + "/members?=",
                "/api/v1/sources/" + group.path("source_id").asString() + "/items?=",
                "/api/v1/items/" + item + "/comments?=", "/feeds/home.rss?token=" + feedToken + "&=",
                "/feeds/home.atom?=&token=" + feedToken}) {
            // Tomcat refuses such a query when the parameters are first read: once, for every endpoint.
            assertInvalid(api.get(path, alice.token()), "query");
        }
    }

    @Test
    void booleansAndNumbersAreNotStrings() {
        TestUser alice = api.newUser("strict");

        assertInvalid(api.post("/api/v1/posts", alice.token(), "{\"text\": false}"), "text");
        assertInvalid(api.post("/api/v1/posts", alice.token(), "{\"text\": 12345}"), "text");
        assertInvalid(api.post("/api/v1/posts", alice.token(), "{\"text\": 1.5}"), "text");
        assertInvalid(api.post("/api/v1/posts", alice.token(), "{\"text\": \"ok\", \"tags\": [true]}"), "tags[0]");
        assertInvalid(api.post("/api/v1/groups", alice.token(), "{\"name\": false}"), "name");
        assertInvalid(api.post("/api/v1/folders", alice.token(), "{\"name\": 7}"), "name");
        assertInvalid(api.post("/api/v1/markers", alice.token(), "{\"up_to_id\": 12345}"), "up_to_id");
        assertInvalid(api.post("/api/v1/markers", alice.token(), "{\"up_to_id\": \"1\", \"source_id\": 2}"), "source_id");
        assertThat(api.get("/api/v1/timelines/home", alice.token()).json().size()).as("nothing was posted").isZero();
    }

    @Test
    void stringsAndNumbersAreNotBooleans() {
        TestUser alice = api.newUser("strictbool");

        for (String fever : new String[] {"\"true\"", "1", "\"yes\""}) {
            ApiResponse response = api.send(api.builder("/api/v1/tokens", null)
                    .header("Authorization", ApiClient.basic(alice.username(), alice.password()))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"x\", \"scopes\": [\"read\"], \"fever\": " + fever + "}")));
            assertInvalid(response, "fever");
        }
    }

    @Test
    void theQueryMethodIsA405Problem() throws IOException {
        TestUser alice = api.newUser("query");

        RawResponse response = raw("QUERY /api/v1/timelines/home HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + alice.token() + "\r\nConnection: close\r\n\r\n");

        assertProblem(response, 405);
    }

    @Test
    void aNonAsciiByteInAuthorizationIsA401Problem() throws IOException {
        byte[] head = ("GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer caf\u00e9\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);

        RawResponse response = raw(head);

        assertProblem(response, 401);
        assertThat(response.header("www-authenticate")).startsWith("Bearer error=\"invalid_token\"");
        byte[] raw = ("GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \u0080\u00ff\u0081\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        assertProblem(raw(raw), 401);
    }

    @Test
    void anUnsupportedMethodIsA405WithAllowBeforeAnyCredentialIsAskedFor() throws IOException {
        TestUser alice = api.newUser("method");
        for (String request : new String[] {"PUT /api/v1/me", "DELETE /api/v1/timelines/home", "PATCH /api/v1/tokens",
                "PUT /feeds/users/" + alice.username() + ".rss", "POST /feeds/users/" + alice.username() + ".atom"}) {
            RawResponse response = raw(request + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");

            assertProblem(response, 405);
            assertThat(response.header("allow")).as(request).contains("GET");
        }
        assertThat(api.get("/api/v1/me", null).status()).as("a method the path takes still needs the token").isEqualTo(401);
    }

    @Test
    void oversizedUrlsAndHeadersGetTheirOwnStatusesAndAnUnknownVersionDoesNotBlameTheServer() throws IOException {
        RawResponse longUrl = raw("GET /api/v1/me?x=" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        RawResponse bigHeader = raw("GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "b".repeat(20_000)
                + "\r\nConnection: close\r\n\r\n");
        RawResponse version = raw("GET /api/v1/me HTTP/2.5\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");

        assertProblem(longUrl, 414);
        assertProblem(bigHeader, 431);
        assertProblem(version, 505);
        assertThat(JSON.readTree(version.body()).path("detail").asString()).doesNotContain("our side").contains("HTTP/1.1");
    }

    @Test
    void theErrorPageAskedForByNameIsA404() throws IOException {
        RawResponse response = raw("GET /error HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");

        assertProblem(response, 404);
    }

    @Test
    void onlyJsonIsProducedAndAnUnparseableAcceptIsA406Problem() throws IOException {
        TestUser alice = api.newUser("accept");
        for (String accept : new String[] {";;;", "application/yaml", "application/x-yaml", "application/cbor"}) {
            RawResponse response = raw("GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + alice.token()
                    + "\r\nAccept: " + accept + "\r\nConnection: close\r\n\r\n");

            assertProblem(response, 406);
        }
        for (String accept : new String[] {"application/problem+json", "application/vnd.example+json", "application/*+json"}) {
            ApiResponse response = api.send(api.builder("/api/v1/me", alice.token()).header("Accept", accept).GET());

            assertThat(response.status()).as(accept + " " + response).isEqualTo(200);
            assertThat(response.contentType()).as(accept).startsWith("application/json");
        }
    }

    @Test
    void emptyCursorsEmptyEmailsDuplicateKeysAndMalformedEtagsAreRefused() {
        TestUser alice = api.newUser("refuse");
        for (String path : new String[] {"/api/v1/timelines/home?since_id=", "/api/v1/timelines/home?max_id=",
                "/api/v1/users/" + alice.username() + "/feed?since_id=", "/api/v1/timelines/starred?min_id="}) {
            assertInvalid(api.get(path, alice.token()), path.substring(path.indexOf('?') + 1, path.length() - 1));
        }
        assertInvalid(api.post("/api/v1/accounts", null, Map.of("username", ApiClient.uniqueUsername("em"),
                "password", "long enough password", "email", "")), "email");
        ApiResponse duplicate = api.post("/api/v1/folders", alice.token(), "{\"name\": \"a\", \"name\": \"b\"}");
        assertThat(duplicate.status()).as(duplicate.toString()).isEqualTo(400);
        assertThat(duplicate.contentType()).startsWith("application/problem+json");
        assertThat(api.get("/api/v1/folders", alice.token()).json().size()).as("nothing was made").isZero();
        for (String etag : new String[] {"abc", "\"unterminated", "W/abc", "\"a\" \"b\""}) {
            assertInvalid(api.send(api.builder("/api/v1/timelines/home", alice.token()).header("If-None-Match", etag).GET()),
                    "If-None-Match");
        }
        assertThat(api.send(api.builder("/api/v1/timelines/home", alice.token()).header("If-None-Match", "W/\"x\", \"y\"").GET())
                .status()).as("well-formed tags that match nothing").isEqualTo(200);
    }

    @Test
    void pathsTomcatRefusesAreProblemsToo() throws IOException {
        for (String path : new String[] {"/api/v1/me;x=1", "/api/v1/timelines/home;jsessionid=1", "/api/v1/%2e%2e%2fme",
                "/api/v1/me%00", "/api/v1/%2e%2e/%2e%2e/etc/passwd", "/api/v1/items/1%2F2/read", "/api/v1/me%5c"}) {
            RawResponse response = raw("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            assertThat(response.status()).as(path + " " + response).isBetween(400, 499);
            assertProblem(response, response.status());
        }
    }

    @Test
    void aMalformedEscapeInTheQueryIsAProblem() throws IOException {
        TestUser alice = api.newUser("escape");

        RawResponse response = raw("GET /api/v1/timelines/home?limit=%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + alice.token() + "\r\nConnection: close\r\n\r\n");

        assertThat(response.status()).as(response.toString()).isBetween(400, 499);
        assertProblem(response, response.status());
    }

    @Test
    void theTokenEndpointWithoutClientCredentialsAnswersOAuthsInvalidClient() {
        for (String form : new String[] {"grant_type=authorization_code&code=x", "grant_type=refresh_token&refresh_token=x", ""}) {
            ApiResponse response = api.send(api.builder("/oauth2/token", null)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form)));

            assertThat(response.status()).as(response.toString()).isEqualTo(401);
            assertThat(response.header("WWW-Authenticate")).startsWith("Basic");
            assertThat(response.contentType()).startsWith("application/json");
            assertThat(response.json().path("error").asString()).isEqualTo("invalid_client");
        }
    }

    private static void assertInvalid(ApiResponse response, String field) {
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().path("errors").findValuesAsString("field")).as(response.toString()).contains(field);
    }

    private static void assertProblem(RawResponse response, int status) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        assertThat(response.header("content-type")).as(response.toString()).startsWith("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("type").asString()).startsWith("urn:tributary:problem:");
        assertThat(problem.path("title").asString()).isNotEmpty();
    }

    /** What a raw HTTP/1.1 exchange answered: Java's client would refuse to send some of these requests. */
    record RawResponse(int status, String head, String body) {

        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals(name)) {
                    return line.substring(colon + 1).strip();
                }
            }
            return "";
        }
    }

    private RawResponse raw(String request) throws IOException {
        return raw(request.getBytes(StandardCharsets.UTF_8));
    }

    private RawResponse raw(byte[] request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int split = text.indexOf("\r\n\r\n");
            String head = split < 0 ? text : text.substring(0, split);
            String body = split < 0 ? "" : text.substring(split + 4);
            if (head.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
                body = unchunk(body);
            }
            return new RawResponse(Integer.parseInt(head.split(" ")[1]), head, body);
        }
    }

    private static String unchunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int lineEnd = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, lineEnd).strip(), 16);
            if (size == 0) {
                break;
            }
            body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
        return body.toString();
    }
}
