package dev.tributary.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The OAuth 2.1 authorization-code flow with PKCE over plain HTTP, as a browser (with a cookie
 * jar, following no redirects by itself) and an app would drive it: register an app, send the
 * person to {@code /oauth2/authorize}, sign in on the form, approve on the consent page, take the
 * code from the redirect and exchange it at {@code /oauth2/token}.
 * <p>
 * {@link #tokensFor} does all of it in one call; the steps are public for tests that poke at one.
 */
public final class OAuthFlow {

    /** Where test apps send people back to; never fetched, the code is read off the redirect. */
    public static final String REDIRECT_URI = "https://app.example/callback";
    /** A native app's private-use-scheme redirect. */
    public static final String NATIVE_REDIRECT_URI = "com.example.app:/callback";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Pattern INPUT = Pattern.compile("<input\\b[^>]*>", Pattern.CASE_INSENSITIVE);

    private final ApiClient api;
    private final int port;

    public OAuthFlow(int port) {
        this.api = new ApiClient(port);
        this.port = port;
    }

    public ApiClient api() {
        return api;
    }

    /** A registered app as the test holds it. {@code clientSecret} is null for a public app. */
    public record App(String clientId, @Nullable String clientSecret, String redirectUri, String authMethod) {
    }

    /** What the token endpoint answered. {@code refreshToken} is null if none was issued. */
    public record Tokens(String accessToken, @Nullable String refreshToken, String scope, JsonNode json) {

        /** The tokens of a 200 from the token endpoint (asserted). */
        public static Tokens of(ApiResponse response) {
            assertThat(response.status()).as(response.toString()).isEqualTo(200);
            JsonNode json = response.json();
            String refresh = json.path("refresh_token").isMissingNode() ? null : json.path("refresh_token").asString();
            return new Tokens(json.path("access_token").asString(), refresh, json.path("scope").asString(), json);
        }
    }

    /** A PKCE pair: the secret verifier and its S256 challenge. */
    public record Pkce(String verifier, String challenge) {

        public static Pkce create() {
            byte[] bytes = new byte[32];
            RANDOM.nextBytes(bytes);
            String verifier = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            try {
                byte[] hash = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
                return new Pkce(verifier, Base64.getUrlEncoder().withoutPadding().encodeToString(hash));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Registers an app (confidential with {@code client_secret_basic}) and runs the whole flow for {@code user}. */
    public Tokens tokensFor(TestUser user, String... scopes) {
        return authorize(user, registerApp("client_secret_basic", scopes), scopes);
    }

    /** The whole flow for an app already registered: a new browser session, sign-in, consent, code, tokens. */
    public Tokens authorize(TestUser user, App app, String... scopes) {
        Pkce pkce = Pkce.create();
        String code = code(browser(), user, app, String.join(" ", scopes), pkce);
        return Tokens.of(exchange(app, code, pkce.verifier(), app.redirectUri()));
    }

    /** Registers an app; {@code authMethod} is client_secret_basic, client_secret_post or none. */
    public App registerApp(String authMethod, String... scopes) {
        String redirect = "none".equals(authMethod) ? NATIVE_REDIRECT_URI : REDIRECT_URI;
        ApiResponse response = api.post("/api/v1/apps", null, Map.of("client_name", "Test app " + authMethod,
                "redirect_uris", List.of(redirect), "scopes", List.of(scopes), "token_endpoint_auth_method", authMethod));
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        JsonNode json = response.json();
        String secret = json.path("client_secret").isNull() ? null : json.path("client_secret").asString();
        return new App(json.path("client_id").asString(), secret, redirect, authMethod);
    }

    /** The authorization request URL (a path) for {@code app}; {@code pkce} null leaves the challenge out. */
    public static String authorizePath(App app, String scope, String state, @Nullable Pkce pkce, String redirectUri) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("response_type", "code");
        query.put("client_id", app.clientId());
        query.put("redirect_uri", redirectUri);
        query.put("scope", scope);
        query.put("state", state);
        if (pkce != null) {
            query.put("code_challenge", pkce.challenge());
            query.put("code_challenge_method", "S256");
        }
        return "/oauth2/authorize?" + form(query);
    }

    /**
     * Drives the browser from the authorization request to the redirect back to the app:
     * sign-in if needed, consent if asked; returns the code (and checks the state came back).
     */
    public String code(Browser browser, TestUser user, App app, String scope, Pkce pkce) {
        String state = "st-" + RANDOM.nextInt(1_000_000);
        ApiResponse response = browser.get(authorizePath(app, scope, state, pkce, app.redirectUri()));
        if (isRedirectTo(response, "/login")) {
            response = browser.follow(browser.signIn(user.username(), user.password()));
        }
        if (isRedirectTo(response, "/oauth2/consent")) {
            response = browser.approve(browser.get(response.header("Location")), null);
        }
        assertThat(response.status()).as(response.toString()).isEqualTo(302);
        String location = response.header("Location");
        assertThat(location).as("redirect back to the app").startsWith(app.redirectUri() + "?");
        Map<String, String> query = query(location);
        assertThat(query).as(location).containsEntry("state", state).containsKey("code");
        return query.get("code");
    }

    /** POST /oauth2/token for a code. */
    public ApiResponse exchange(App app, String code, String verifier, String redirectUri) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri);
        form.put("code_verifier", verifier);
        return clientPost(app, "/oauth2/token", form);
    }

    /** POST /oauth2/token with a refresh token. */
    public ApiResponse refresh(App app, String refreshToken) {
        return clientPost(app, "/oauth2/token", new LinkedHashMap<>(Map.of("grant_type", "refresh_token",
                "refresh_token", refreshToken)));
    }

    /** POST /oauth2/revoke for an access or refresh token. */
    public ApiResponse revoke(App app, String token) {
        return clientPost(app, "/oauth2/revoke", new LinkedHashMap<>(Map.of("token", token)));
    }

    /** A POST from the app to a token endpoint, authenticated the way the app registered. */
    public ApiResponse clientPost(App app, String path, Map<String, String> form) {
        HttpRequest.Builder request = api.builder(path, null).header("Content-Type", "application/x-www-form-urlencoded");
        switch (app.authMethod()) {
            case "client_secret_basic" -> request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (encode(app.clientId()) + ":" + encode(app.clientSecret())).getBytes(StandardCharsets.UTF_8)));
            case "client_secret_post" -> {
                form.put("client_id", app.clientId());
                form.put("client_secret", app.clientSecret());
            }
            default -> form.put("client_id", app.clientId());
        }
        return api.send(request.POST(HttpRequest.BodyPublishers.ofString(form(form))));
    }

    /** A new browser session (no cookies yet). */
    public Browser browser() {
        return new Browser();
    }

    /** A browser ({@link BrowserSession}) that asks for pages as HTML, and the consent page's steps. */
    public final class Browser {

        private final BrowserSession session = new BrowserSession(port);

        /** GET a path or absolute URL. */
        public ApiResponse get(String pathOrUrl) {
            return session.send(HttpRequest.newBuilder(session.uri(pathOrUrl)).header("Accept", "text/html").GET());
        }

        /** POST a form; values repeat for repeated names. */
        public ApiResponse postForm(String path, List<Map.Entry<String, String>> fields) {
            return session.postForm(path, fields);
        }

        /** Opens the sign-in form and submits it; returns the form's answer (a redirect). */
        public ApiResponse signIn(String username, String password) {
            return session.signIn(username, password);
        }

        /**
         * Submits the consent page's "Allow" form with {@code scopes} ticked (null: as the page
         * offers them), or its "Deny" form when {@code scopes} is empty.
         */
        public ApiResponse approve(ApiResponse consentPage, @Nullable List<String> scopes) {
            assertThat(consentPage.status()).as(consentPage.toString()).isEqualTo(200);
            String html = consentPage.body();
            List<Map.Entry<String, String>> fields = new ArrayList<>();
            fields.add(Map.entry("client_id", hiddenField(html, "client_id").orElseThrow()));
            fields.add(Map.entry("state", hiddenField(html, "state").orElseThrow()));
            fields.add(Map.entry("_csrf", hiddenField(html, "_csrf").orElseThrow()));
            List<String> ticked = scopes != null ? scopes : checkboxes(html, "scope");
            ticked.forEach(scope -> fields.add(Map.entry("scope", scope)));
            return postForm("/oauth2/authorize", fields);
        }

        /** Follows one redirect. */
        public ApiResponse follow(ApiResponse redirect) {
            assertThat(redirect.status()).as(redirect.toString()).isIn(302, 303);
            return get(redirect.header("Location"));
        }
    }

    /** Whether the response redirects to {@code path} on this server (with any query). */
    public static boolean isRedirectTo(ApiResponse response, String path) {
        String location = response.header("Location");
        if (response.status() != 302 || location == null) {
            return false;
        }
        String target = URI.create(location).getPath();
        return path.equals(target);
    }

    /** The value of the first hidden or other input named {@code name} in an HTML page. */
    public static Optional<String> hiddenField(String html, String name) {
        Matcher inputs = INPUT.matcher(html);
        while (inputs.find()) {
            String tag = inputs.group();
            if (name.equals(attribute(tag, "name"))) {
                return Optional.ofNullable(attribute(tag, "value"));
            }
        }
        return Optional.empty();
    }

    private static List<String> checkboxes(String html, String name) {
        List<String> values = new ArrayList<>();
        Matcher inputs = INPUT.matcher(html);
        while (inputs.find()) {
            String tag = inputs.group();
            if ("checkbox".equals(attribute(tag, "type")) && name.equals(attribute(tag, "name"))) {
                values.add(attribute(tag, "value"));
            }
        }
        return values;
    }

    private static @Nullable String attribute(String tag, String attribute) {
        Matcher value = Pattern.compile("\\s" + attribute + "=\"([^\"]*)\"").matcher(tag);
        return value.find() ? unescape(value.group(1)) : null;
    }

    private static String unescape(String html) {
        return html.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&amp;", "&");
    }

    /** The query parameters of a URL (first value of each). */
    public static Map<String, String> query(String url) {
        Map<String, String> params = new LinkedHashMap<>();
        String query = URI.create(url).getRawQuery();
        if (query != null) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                params.putIfAbsent(key, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return params;
    }

    private static String form(Map<String, String> fields) {
        StringBuilder body = new StringBuilder();
        fields.forEach((k, v) -> body.append(body.isEmpty() ? "" : "&").append(encode(k)).append('=').append(encode(v)));
        return body.toString();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
