package dev.tributary.pubsub;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Wires the pub/sub module; found by component scan of {@code dev.tributary.pubsub}. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({FanoutSettings.class, TimelineSettings.class})
class PubsubConfiguration {
}
