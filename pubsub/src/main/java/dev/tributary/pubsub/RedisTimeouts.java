package dev.tributary.pubsub;

import io.lettuce.core.TimeoutOptions;
import java.time.Duration;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.validation.annotation.Validated;

/**
 * How long a Redis command may take before it fails, apart from how long a connection may take to
 * be set up. Lettuce uses one timeout ({@code spring.data.redis.timeout}) for both; at 1 s a busy
 * node's connection handshake failed at start-up, at its 60 s default a dead Redis held every
 * request for a minute. So connections get {@code spring.data.redis.timeout} and each command this
 * fixed one: a Redis that is gone is the store's 503 within about a second.
 *
 * @param command the most one command waits for its answer
 */
@Validated
@ConfigurationProperties("tributary.redis")
public record RedisTimeouts(@NotNull @DefaultValue("1s") Duration command) {

    public RedisTimeouts {
        if (command.isNegative() || command.isZero()) {
            throw new IllegalArgumentException("tributary.redis.command must be positive, not " + command);
        }
    }

    /** Applies the command timeout to every Redis client the app builds. */
    @Configuration(proxyBeanMethods = false)
    static class Wiring {

        @Bean
        LettuceClientOptionsBuilderCustomizer commandTimeout(RedisTimeouts timeouts) {
            return options -> options.timeoutOptions(TimeoutOptions.builder().fixedTimeout(timeouts.command()).build());
        }
    }
}
