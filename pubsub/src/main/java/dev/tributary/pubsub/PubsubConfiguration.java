package dev.tributary.pubsub;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Wires the pub/sub module; found by component scan of {@code dev.tributary.pubsub}. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({FanoutSettings.class, TimelineSettings.class, InboxSettings.class, LimitSettings.class,
        SearchSettings.class, RuleSettings.class, RedisTimeouts.class, XmppSettings.class})
class PubsubConfiguration {

    /** The horizon holds the home window: a window larger than the inbox would show trimmed holes. */
    PubsubConfiguration(TimelineSettings timeline, InboxSettings inbox) {
        if (inbox.maxEntries() < timeline.maxEntries()) {
            throw new IllegalStateException("tributary.inbox.max-entries (" + inbox.maxEntries()
                    + ") must be at least tributary.timeline.max-entries (" + timeline.maxEntries() + ")");
        }
    }
}
