package dev.tributary.api.hub;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import org.springframework.stereotype.Component;

/**
 * Bounds the calls this node has in flight to one callback host (verifications and deliveries
 * together), so a thousand subscriptions on one host are a queue here, not a flood there.
 */
@Component
class CallbackHosts {

    private final int perHost;
    /** Hosts idle for a while are forgotten; one that is in use is never evicted under a holder (access renews it). */
    private final Cache<String, Semaphore> permits = Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(10)).build();

    CallbackHosts(HubSettings settings) {
        this.perHost = settings.perHostConcurrency();
    }

    /** Runs {@code call} once the host has a free slot (waiting for one). */
    <T> T call(String host, Supplier<T> call) throws InterruptedException {
        Semaphore slots = permits.get(host, h -> new Semaphore(perHost, true));
        slots.acquire();
        try {
            return call.get();
        } finally {
            slots.release();
        }
    }
}
