package dev.tributary.api.security;

import dev.tributary.api.site.WebSettings;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.session.SessionRepository;
import org.springframework.stereotype.Component;

/**
 * The browser sessions each person signed in, so that a password change can end the others.
 * Spring Session's plain Redis repository keeps no index by person; this set (in Redis beside the
 * sessions, and lost with them) is that index. It may name sessions that already ended:
 * deleting one of those does nothing.
 */
@Component
public class PersonSessions {

    private final StringRedisTemplate redis;
    private final SessionRepository<?> sessions;
    private final Revocations revocations;
    private final WebSettings settings;

    PersonSessions(StringRedisTemplate redis, SessionRepository<?> sessions, Revocations revocations, WebSettings settings) {
        this.redis = redis;
        this.sessions = sessions;
        this.revocations = revocations;
        this.settings = settings;
    }

    /** Notes a session the person just signed in; the set lives as long as its newest session may. */
    void signedIn(long userId, String sessionId) {
        String key = key(userId);
        redis.opsForSet().add(key, sessionId);
        redis.expire(key, settings.sessionTimeout());
    }

    /** Ends every session of the person but {@code keep} (null: all), and the streams they opened; returns how many. */
    public int endAllBut(long userId, @Nullable String keep) {
        Set<String> ids = redis.opsForSet().members(key(userId));
        if (ids == null) {
            return 0;
        }
        int ended = 0;
        for (String id : ids) {
            if (id.equals(keep)) {
                continue;
            }
            sessions.deleteById(id);
            redis.opsForSet().remove(key(userId), id);
            revocations.announce(Revocations.sessionKey(id));
            ended++;
        }
        return ended;
    }

    private static String key(long userId) {
        return "tributary:person-sessions:" + userId;
    }
}
