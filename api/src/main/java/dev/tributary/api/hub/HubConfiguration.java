package dev.tributary.api.hub;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Wires the hub's settings. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(HubSettings.class)
class HubConfiguration {
}
