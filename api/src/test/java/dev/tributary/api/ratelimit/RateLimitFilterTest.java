package dev.tributary.api.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import dev.tributary.api.web.Caller;
import dev.tributary.api.security.CallerAuthentication;
import dev.tributary.api.web.Scope;
import dev.tributary.api.web.ProblemWriter;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import dev.tributary.api.web.PresentedCredential;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.core.context.SecurityContextHolder;

/** The filter's decisions over in-memory buckets: keys, anonymous limits, and failing open. */
class RateLimitFilterTest {

    private final Map<String, Long> counts = new HashMap<>();
    private final Buckets memory = (key, limit, window) -> new Bucket(counts.merge(key, 1L, Long::sum), limit, 90_500);
    private final ProblemWriter problems = mock(ProblemWriter.class);
    private final RateLimitSettings settings = new RateLimitSettings(true, 3, Duration.ofMinutes(5), 2, 4, 5, 6, 7, 8);

    @BeforeEach
    void problemsSetTheStatus() throws Exception {
        doAnswer(call -> {
            call.<HttpServletResponse>getArgument(1).setStatus(call.<HttpStatus>getArgument(2).value());
            return null;
        }).when(problems).write(any(), any(), any(HttpStatus.class), anyString(), anyString());
    }

    @AfterEach
    void clearCaller() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void requestsWithoutATokenAreCountedPerAddressAgainstTheAnonymousLimit() throws Exception {
        RateLimitFilter filter = after(memory);

        MockHttpServletResponse first = run(filter, request("10.0.0.1", null));
        MockHttpServletResponse second = run(filter, request("10.0.0.1", null));
        MockHttpServletResponse third = run(filter, request("10.0.0.1", null));
        MockHttpServletResponse elsewhere = run(filter, request("10.0.0.2", null));

        assertThat(first.getHeader("RateLimit-Limit")).isEqualTo("2");
        assertThat(first.getHeader("RateLimit-Remaining")).isEqualTo("1");
        assertThat(first.getHeader("RateLimit-Reset")).isEqualTo("91");
        assertThat(second.getHeader("RateLimit-Remaining")).isEqualTo("0");
        assertThat(third.getStatus()).isEqualTo(429);
        assertThat(third.getHeader("Retry-After")).isEqualTo("91");
        assertThat(elsewhere.getStatus()).isEqualTo(200);
        assertThat(elsewhere.getHeader("RateLimit-Remaining")).isEqualTo("1");
    }

    @Test
    void anAuthenticatedTokenIsCountedByItsPersonNotItsAddressNorItsSecret() throws Exception {
        RateLimitFilter filter = after(memory);
        SecurityContextHolder.getContext().setAuthentication(new CallerAuthentication(new Caller(7, Set.of(Scope.READ))));

        MockHttpServletResponse fromOne = run(filter, request("10.0.0.1", "trb_secret"));
        MockHttpServletResponse fromAnother = run(filter, request("10.0.0.9", "trb_secret"));

        assertThat(fromOne.getHeader("RateLimit-Limit")).isEqualTo("3");
        assertThat(fromAnother.getHeader("RateLimit-Remaining")).isEqualTo("1");
        assertThat(counts).containsOnlyKeys("ratelimit:3/300000:person:7");
    }

    @Test
    void aSignedInBrowserSessionIsCountedPerPersonAgainstTheTokenLimit() throws Exception {
        RateLimitFilter filter = after(memory);
        SecurityContextHolder.getContext().setAuthentication(
                new CallerAuthentication(new Caller(42, Set.of(Scope.READ, Scope.WRITE))));

        run(filter, request("10.0.0.1", null));
        run(filter, request("10.0.0.2", null));
        run(filter, request("10.0.0.3", null));
        MockHttpServletResponse fourth = run(filter, request("10.0.0.4", null));

        assertThat(counts).containsOnlyKeys("ratelimit:3/300000:person:42");
        assertThat(fourth.getStatus()).isEqualTo(429);
    }

    @Test
    void keysAHandlerAsksForAreReadAlongOnlyForAnAuthenticatedCaller() throws Exception {
        List<List<String>> asked = new ArrayList<>();
        Buckets reading = reading(asked);
        ReadAlong none = (request, caller) -> List.of();
        ReadAlong versions = (request, caller) -> List.of("version:" + caller.userId(), "gone");
        RateLimitFilter filter = new RateLimitFilter(reading, settings, problems, List.of(), List.of(none, versions), false);

        MockHttpServletRequest anonymous = request("10.0.0.1", null);
        run(filter, anonymous);
        assertThat(asked).containsExactly(List.of());
        assertThat(ReadAlong.read(anonymous)).as("nothing read for an anonymous request").isNull();

        SecurityContextHolder.getContext().setAuthentication(new CallerAuthentication(new Caller(7, Set.of(Scope.READ))));
        MockHttpServletRequest signedIn = request("10.0.0.1", "trb_secret");
        run(filter, signedIn);

        assertThat(asked.getLast()).containsExactly("version:7", "gone");
        ReadAlong.Read read = ReadAlong.read(signedIn);
        assertThat(read).isNotNull();
        assertThat(read.keys()).containsExactly("version:7", "gone");
        assertThat(read.values()).containsExactly("v:version:7", null);
    }

    @Test
    void moreKeysThanAreReadAlongAreLeftToTheHandler() throws Exception {
        List<List<String>> asked = new ArrayList<>();
        Buckets reading = reading(asked);
        List<String> many = IntStream.rangeClosed(0, ReadAlong.MAX_KEYS).mapToObj(i -> "stamp:" + i).toList();
        RateLimitFilter filter = new RateLimitFilter(reading, settings, problems, List.of(), List.of((request, caller) -> many), false);
        SecurityContextHolder.getContext().setAuthentication(new CallerAuthentication(new Caller(7, Set.of(Scope.READ))));
        MockHttpServletRequest signedIn = request("10.0.0.1", "trb_secret");

        MockHttpServletResponse response = run(filter, signedIn);

        assertThat(asked).containsExactly(List.of());
        assertThat(ReadAlong.read(signedIn)).isNull();
        assertThat(response.getHeader("RateLimit-Remaining")).as("counted all the same").isEqualTo("2");
    }

    @Test
    void aStoreThatCannotReadAlongLeavesTheHandlerToReadItself() throws Exception {
        RateLimitFilter filter = new RateLimitFilter(memory, settings, problems, List.of(),
                List.of((request, caller) -> List.of("version:" + caller.userId())), false);
        SecurityContextHolder.getContext().setAuthentication(new CallerAuthentication(new Caller(7, Set.of(Scope.READ))));
        MockHttpServletRequest signedIn = request("10.0.0.1", "trb_secret");

        MockHttpServletResponse response = run(filter, signedIn);

        assertThat(response.getHeader("RateLimit-Remaining")).as("counted all the same").isEqualTo("2");
        assertThat(ReadAlong.read(signedIn)).isNull();
    }

    @Test
    void anUnreachableCounterLetsRequestsThrough() throws Exception {
        Buckets down = (key, limit, window) -> {
            throw new IllegalStateException("Redis is down");
        };
        RateLimitFilter filter = after(down);
        MockFilterChain chain = new MockFilterChain();
        MockHttpServletResponse response = new MockHttpServletResponse();

        filter.doFilter(request("10.0.0.1", null), response, chain);

        assertThat(chain.getRequest()).as("the request went on").isNotNull();
        assertThat(response.getStatus()).isEqualTo(200);
        assertThat(response.getHeader("RateLimit-Limit")).isNull();
        verify(problems, never()).write(any(), any(), eq(HttpStatus.TOO_MANY_REQUESTS), anyString(), anyString());
    }

    @Test
    void disabledOrPreflightRequestsAreNotCounted() throws Exception {
        RateLimitFilter disabled = new RateLimitFilter(memory, new RateLimitSettings(false, 3, Duration.ofMinutes(5), 2, 4, 5, 6, 7, 8), problems, List.of(), List.of(), false);
        MockHttpServletRequest preflight = request("10.0.0.1", null);
        preflight.setMethod("OPTIONS");

        run(disabled, request("10.0.0.1", null));
        run(after(memory), preflight);

        assertThat(counts).isEmpty();
    }

    @Test
    void aPresentedCredentialThatDoesNotAuthenticateCountsAgainstTheAddress() throws Exception {
        PresentedCredential fever = request -> Optional.ofNullable(request.getParameter("api_key"))
                .map(key -> new PresentedCredential.Presented("fever", key, key.equals("good") ? 11L : null));
        RateLimitFilter filter = new RateLimitFilter(memory, settings, problems, List.of(fever), List.of(), false);

        for (int i = 0; i < 3; i++) {
            run(filter, fever("10.0.0.1", "random-" + i));
        }
        MockHttpServletResponse good = run(filter, fever("10.0.0.1", "good"));

        assertThat(counts).containsEntry("ratelimit:2/300000:addr:10.0.0.1", 3L).hasSize(2);
        assertThat(counts).containsEntry("ratelimit:3/300000:person:11", 1L);
        assertThat(good.getStatus()).as("a valid key counts in its person's bucket").isEqualTo(200);
    }

    @Test
    void eachPathHasItsBudgetAndEachStageCountsOnlyItsOwn() throws Exception {
        RateLimitFilter before = new RateLimitFilter(memory, settings, problems, List.of(), List.of(), true);
        RateLimitFilter after = after(memory);
        for (String path : new String[] {"/", "/people/ann", "/feeds/users/ann.rss", "/websub/1/k", "/login", "/oauth2/token",
                "/accounts/ClientLogin", "/css/app.css", "/livez", "/.well-known/oauth-authorization-server"}) {
            MockHttpServletRequest request = new MockHttpServletRequest("GET", path);
            request.setRemoteAddr("10.0.0.5");
            run(before, request);
            run(after, request);
        }

        assertThat(counts).containsOnly(
                Map.entry("ratelimit:pages:4/300000:addr:10.0.0.5", 2L),
                Map.entry("ratelimit:feeds:5/300000:addr:10.0.0.5", 1L),
                Map.entry("ratelimit:websub:8/300000:addr:10.0.0.5", 1L),
                Map.entry("ratelimit:sign_in:6/300000:addr:10.0.0.5", 2L),
                Map.entry("ratelimit:oauth:7/300000:addr:10.0.0.5", 2L));
    }

    /**
     * In-memory buckets that read along: each key's value is "v:" + the key, none for "gone"; the
     * keys asked for land in {@code asked}, and the form without keys is never used.
     */
    private Buckets reading(List<List<String>> asked) {
        return new Buckets() {
            @Override
            public Bucket take(String key, int limit, Duration window) {
                throw new AssertionError("the reading form is used");
            }

            @Override
            public Taken take(String key, int limit, Duration window, List<String> readKeys) {
                asked.add(readKeys);
                return new Taken(memory.take(key, limit, window), readKeys.stream().map(k -> k.equals("gone") ? null : "v:" + k).toList());
            }
        };
    }

    private RateLimitFilter after(Buckets buckets) {
        return new RateLimitFilter(buckets, settings, problems, List.of(), List.of(), false);
    }

    private static MockHttpServletRequest fever(String address, String key) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/fever/");
        request.setRemoteAddr(address);
        request.setParameter("api_key", key);
        return request;
    }

    private static MockHttpServletRequest request(String address, String token) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/v1/me");
        request.setRemoteAddr(address);
        if (token != null) {
            request.addHeader("Authorization", "Bearer " + token);
        }
        return request;
    }

    private static MockHttpServletResponse run(RateLimitFilter filter, MockHttpServletRequest request) throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request, response, new MockFilterChain());
        return response;
    }
}
