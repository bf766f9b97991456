package dev.tributary.api.token;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tributary.api.security.BearerTokenAuthenticator;
import dev.tributary.api.security.Revocations;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.ApiSettings;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.stereotype.Component;

/**
 * Authenticates personal access tokens. Every API request checks one, so answers (including
 * "unknown") are cached per node for {@code tributary.api.token-cache-ttl}; a revocation is
 * announced on Redis and evicts the token from every node's cache at once.
 */
@Component
class PersonalTokenAuthenticator implements BearerTokenAuthenticator, MessageListener {

    static final String REVOKED_CHANNEL = PersonalTokens.REVOKED_CHANNEL;

    private final PersonalTokens tokens;
    private final Revocations revocations;
    private final Cache<String, Optional<Caller>> cache;

    PersonalTokenAuthenticator(PersonalTokens tokens, Revocations revocations, ApiSettings settings,
            RedisMessageListenerContainer listeners) {
        this.tokens = tokens;
        this.revocations = revocations;
        this.cache = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(settings.tokenCacheTtl()).build();
        listeners.addMessageListener(this, new ChannelTopic(REVOKED_CHANNEL));
    }

    @Override
    public boolean supports(String token) {
        return token.startsWith(PersonalTokens.PREFIX);
    }

    @Override
    public Optional<Caller> authenticate(String token) {
        String key = HexFormat.of().formatHex(PersonalTokens.hash(token));
        return cache.get(key, k -> tokens.callerOf(HexFormat.of().parseHex(k)));
    }

    /** Forgets a revoked token here and tells every node (this one too: what was derived from it) to. */
    void revoked(byte[] hash) {
        String key = HexFormat.of().formatHex(hash);
        cache.invalidate(key);
        revocations.announce(Revocations.tokenKey(key));
    }

    @Override
    public void onMessage(Message message, byte[] pattern) {
        String key = new String(message.getBody(), StandardCharsets.US_ASCII);
        String token = Revocations.tokenKey("");
        if (key.startsWith(token)) {
            cache.invalidate(key.substring(token.length()));
        }
    }
}
