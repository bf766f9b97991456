package dev.tributary.api.ratelimit;

import dev.tributary.api.security.UnauthenticatedLimit;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Component;

/**
 * A 401 counts against its client address's bucket, the one the open endpoints use, so it
 * carries the same headers as every other API answer, and guessing tokens is limited as
 * creating accounts is. Fails open like the filter when Redis is unreachable.
 */
@Component
class AddressLimit implements UnauthenticatedLimit {

    private final Buckets buckets;
    private final RateLimitSettings settings;

    AddressLimit(Buckets buckets, RateLimitSettings settings) {
        this.buckets = buckets;
        this.settings = settings;
    }

    @Override
    public boolean overLimit(HttpServletRequest request, HttpServletResponse response) {
        if (!settings.enabled()) {
            return false;
        }
        Bucket bucket;
        try {
            bucket = buckets.take(RateLimitFilter.addressKey(settings, request.getRemoteAddr()), settings.anonymousRequests(),
                    settings.window());
        } catch (RuntimeException unreachable) {
            return false;
        }
        RateLimitFilter.headers(response, bucket);
        return bucket.exceeded();
    }
}
