package dev.tributary.api.ratelimit;

import dev.tributary.api.web.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Redis keys a request's handler reads first, which the rate limit reads in the round trip that
 * counts the request: a handler whose answer hangs on a small read (the version of what a node
 * keeps) then costs no round trip of its own. Only on a single Redis: a cluster's script cannot
 * reach keys in other slots, so there the handler reads them itself.
 */
public interface ReadAlong {

    /**
     * Keys read along at most; a handler that asks for more reads them itself. Measured: a
     * version's 5 keys read along served 11–16 % more polls, a home page's ~55 stamp keys 10–15 %
     * fewer (most likely the script's turning every value into a Lua string and back, inside the
     * single-threaded Redis, costs more than a round trip by then).
     */
    int MAX_KEYS = 16;

    /** The keys this request's handler reads first; empty for none. Asked once the caller is known. */
    List<String> keys(HttpServletRequest request, Caller caller);

    /** What the rate limit read along for this request, or null when it read nothing (read the keys yourself). */
    static @Nullable Read read(HttpServletRequest request) {
        return request.getAttribute(Read.ATTRIBUTE) instanceof Read read ? read : null;
    }

    /** The keys, and their values in the same order (null where a key holds no string), read in one round trip. */
    record Read(List<String> keys, List<@Nullable String> values) {

        static final String ATTRIBUTE = ReadAlong.class.getName() + ".read";

        public Read {
            keys = List.copyOf(keys);
            values = Collections.unmodifiableList(new ArrayList<>(values));
        }
    }
}
