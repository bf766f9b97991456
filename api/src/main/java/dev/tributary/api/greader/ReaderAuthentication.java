package dev.tributary.api.greader;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tributary.api.security.Revocations;
import dev.tributary.api.token.PersonalTokens;
import dev.tributary.api.web.ApiSettings;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.GoogleLogin;
import dev.tributary.api.web.PresentedCredential;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * Who a Google Reader call acts for, from its {@code Authorization: GoogleLogin auth=…} header,
 * and the {@code T} edit token that goes with each Auth value. Answers are cached per node like
 * personal tokens' ({@code tributary.api.token-cache-ttl}); any token revocation empties the cache
 * on its node before it is answered and, announced on Redis, on every other node, so an Auth value
 * dies with its token at once.
 */
@Component
class ReaderAuthentication implements MessageListener, PresentedCredential {

    private final ReaderLogins logins;
    private final Cache<String, Optional<Caller>> cache;

    ReaderAuthentication(ReaderLogins logins, ApiSettings settings, RedisMessageListenerContainer listeners) {
        this.logins = logins;
        this.cache = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(settings.tokenCacheTtl()).build();
        listeners.addMessageListener(this, new ChannelTopic(PersonalTokens.REVOKED_CHANNEL));
    }

    /** Who the Auth value acts for; empty if it is unknown or what it stood for was revoked. */
    Optional<Caller> caller(String auth) {
        if (!auth.startsWith(ReaderLogins.PREFIX)) {
            return Optional.empty(); // never handed out: no look-up, and nothing cached for it
        }
        return cache.get(cacheKey(auth), key -> logins.callerOf(auth));
    }

    /** For the rate limit: the Auth value a request presents, and whether it acts for anyone. */
    @Override
    public Optional<Presented> check(HttpServletRequest request) {
        return GoogleLogin.auth(request.getHeader("Authorization"))
                .map(auth -> new Presented("greader", auth, caller(auth).map(Caller::userId).orElse(null)));
    }

    private static String cacheKey(String auth) {
        return HexFormat.of().formatHex(ReaderLogins.sha256(auth));
    }

    /**
     * The {@code T} token of an Auth value. It guards against forged cross-site posts, which can
     * never read the Auth header it is derived from; it lives exactly as long as its Auth value.
     */
    static String editToken(String auth) {
        return HexFormat.of().formatHex(ReaderLogins.sha256("reader-edit-token:" + auth)).substring(0, 57);
    }

    /** Forgets every cached answer after a revocation on another node. */
    void forgetAll() {
        cache.invalidateAll();
    }

    /** A revocation on this node: forgotten before its answer goes out, so the next call is refused. */
    @EventListener
    void revoked(Revocations.Revoked revoked) {
        forget(revoked.key());
    }

    @Override
    public void onMessage(Message message, byte @Nullable [] pattern) {
        forget(new String(message.getBody(), StandardCharsets.US_ASCII));
    }

    /** Sign-outs are announced on the same channel and change no Auth value: those are ignored. */
    private void forget(String key) {
        if (!Revocations.isSessionKey(key)) {
            forgetAll();
        }
    }
}
