package dev.tributary.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.security.config.observation.SecurityObservationSettings;

/**
 * Spring Security observes nothing: with its observations only disabled by name, every filter of
 * every request would still go through a no-op observation wrapper wherever an observation
 * handler is registered (the running app's metrics; tests have none, so the wrapper itself
 * cannot be seen here, only the settings Spring Security decides by).
 */
@ApiTest
class SecurityObservationsTest {

    @Autowired ApplicationContext context;

    @Test
    void springSecurityIsToldToObserveNoRequestAuthenticationOrAuthorization() {
        SecurityObservationSettings settings = context.getBean(SecurityObservationSettings.class);

        assertThat(settings.shouldObserveRequests()).isFalse();
        assertThat(settings.shouldObserveAuthentications()).isFalse();
        assertThat(settings.shouldObserveAuthorizations()).isFalse();
    }
}
