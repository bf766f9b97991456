package dev.tributary.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.BrowserSession;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.web.ApiSettings;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Wrong passwords from one address cannot lock the person out from another: the lock-out is the
 * guessing address's, for that account (and, past its own limit, for every account). Other
 * addresses are other loopback addresses (127.0.0.x), which the server sees as other clients.
 */
@ApiTest
class LockoutFromElsewhereApiTest {

    private static final String GUESSER = "127.0.0.2";
    private static final String TOKEN_REQUEST = "{\"name\": \"x\", \"scopes\": [\"read\"]}";

    @LocalServerPort int port;
    @Autowired ApiSettings settings;
    @Autowired StringRedisTemplate redis;
    private ApiClient api;
    private final List<String> addressesUsed = new ArrayList<>(List.of("127.0.0.1", GUESSER));

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @AfterEach
    void forgetTheAddressesFailures() {
        // The address counts are shared by every test in this JVM.
        addressesUsed.forEach(address -> redis.delete(LoginThrottle.addressKey(address)));
    }

    @Test
    void wrongPasswordsFromOneAddressLockThatAddressOutButNotThePersonElsewhere() {
        TestUser alice = api.newUser("lock");
        ApiClient guesser = new ApiClient(port, GUESSER);
        for (int i = 0; i < settings.loginFailuresPerAccount(); i++) {
            assertThat(createToken(guesser, alice.username(), "wrong " + i).status()).isEqualTo(401);
        }

        ApiResponse guesserWithTheRightOne = createToken(guesser, alice.username(), alice.password());
        ApiResponse guesserByReader = clientLogin(guesser, alice.username(), alice.password());
        ApiResponse basicFromHome = createToken(api, alice.username(), alice.password());
        ApiResponse readerFromHome = clientLogin(api, alice.username(), alice.password());
        ApiResponse formFromHome = new BrowserSession(port).signIn(alice.username(), alice.password());

        assertThat(guesserWithTheRightOne.status()).as("the guessing address is locked out").isEqualTo(429);
        assertThat(guesserWithTheRightOne.json().path("detail").asString()).contains("failed logins");
        assertThat(Long.parseLong(guesserWithTheRightOne.header("Retry-After"))).isGreaterThan(60);
        assertThat(guesserByReader.status()).as("by every password door").isEqualTo(429);
        assertThat(basicFromHome.status()).as(basicFromHome.toString()).isEqualTo(201);
        assertThat(readerFromHome.status()).as(readerFromHome.toString()).isEqualTo(200);
        assertThat(readerFromHome.body()).contains("Auth=");
        assertThat(OAuthFlow.isRedirectTo(formFromHome, "/")).as(formFromHome.toString()).isTrue();
        assertThat(createToken(guesser, alice.username(), alice.password()).status())
                .as("the person's sign-ins elsewhere lift nothing from the guesser").isEqualTo(429);
    }

    @Test
    void guessesFromManyAddressesNeverLockACleanAddressOutAndSlowTheGuessersDown() {
        TestUser bob = api.newUser("lock");
        List<ApiClient> guessers = new ArrayList<>();
        for (int i = 3; i < 13; i++) {
            addressesUsed.add("127.0.0." + i);
            guessers.add(new ApiClient(port, "127.0.0." + i));
        }
        // One failure from each of ten addresses: twice the account's allowance, none near it at any one address.
        for (ApiClient guesser : guessers) {
            assertThat(createToken(guesser, bob.username(), "guess").status()).isEqualTo(401);
        }
        addressesUsed.add("127.0.0.13");

        ApiResponse fromHome = createToken(api, bob.username(), bob.password());
        ApiResponse fromANewAddress = createToken(new ApiClient(port, "127.0.0.13"), bob.username(), bob.password());
        ApiResponse formFromHome = new BrowserSession(port).signIn(bob.username(), bob.password());
        ApiResponse aGuesserAgain = createToken(guessers.getFirst(), bob.username(), "guess again");

        assertThat(fromHome.status()).as(fromHome.toString()).isEqualTo(201);
        assertThat(fromANewAddress.status()).as("an address that has not failed").isEqualTo(201);
        assertThat(OAuthFlow.isRedirectTo(formFromHome, "/")).as(formFromHome.toString()).isTrue();
        assertThat(aGuesserAgain.status()).as("an address that failed gets no second try while the account is under attack")
                .isEqualTo(429);
    }

    @Test
    void anAddressGuessingManyAccountsIsLockedOutOfAllOfThem() {
        ApiClient guesser = new ApiClient(port, "127.0.0.14");
        addressesUsed.add("127.0.0.14");
        TestUser carol = api.newUser("lock");
        for (int i = 0; i < settings.loginFailuresPerAddress(); i++) {
            assertThat(createToken(guesser, ApiClient.uniqueUsername("nobody"), "guess").status()).isEqualTo(401);
        }

        assertThat(createToken(guesser, carol.username(), carol.password()).status()).isEqualTo(429);
        assertThat(createToken(api, carol.username(), carol.password()).status()).isEqualTo(201);
    }

    private static ApiResponse createToken(ApiClient client, String username, String password) {
        return client.send(client.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(username, password))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(TOKEN_REQUEST)));
    }

    private static ApiResponse clientLogin(ApiClient client, String username, String password) {
        return client.send("POST", "/accounts/ClientLogin", null, "Email=" + URLEncoder.encode(username, StandardCharsets.UTF_8)
                + "&Passwd=" + URLEncoder.encode(password, StandardCharsets.UTF_8), "application/x-www-form-urlencoded");
    }
}
