package dev.tributary.api.ratelimit;

import dev.tributary.api.web.ProblemWriter;
import dev.tributary.api.web.PresentedCredential;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Puts the rate limit on every public path ({@link Budget}): once right before Spring Security for
 * the sign-in and OAuth paths it answers itself, once right after it for the rest.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({RateLimitSettings.class, RefreshSettings.class})
class RateLimitConfiguration {

    @Bean
    FilterRegistrationBean<RateLimitFilter> rateLimitFilter(Buckets buckets, RateLimitSettings settings, ProblemWriter problems,
            List<PresentedCredential> credentials, List<ReadAlong> along, ObjectProvider<SecurityFilterProperties> security) {
        return registration("rateLimitFilter", new RateLimitFilter(buckets, settings, problems, credentials, along, false),
                order(security) + 1);
    }

    @Bean
    FilterRegistrationBean<RateLimitFilter> signInRateLimitFilter(Buckets buckets, RateLimitSettings settings,
            ProblemWriter problems, ObjectProvider<SecurityFilterProperties> security) {
        return registration("signInRateLimitFilter", new RateLimitFilter(buckets, settings, problems, List.of(), List.of(), true),
                order(security) - 1);
    }

    private static FilterRegistrationBean<RateLimitFilter> registration(String name, RateLimitFilter filter, int order) {
        FilterRegistrationBean<RateLimitFilter> registration = new FilterRegistrationBean<>(filter);
        registration.setName(name);
        registration.addUrlPatterns("/*");
        registration.setOrder(order);
        return registration;
    }

    private static int order(ObjectProvider<SecurityFilterProperties> security) {
        return security.getIfAvailable(SecurityFilterProperties::new).getOrder();
    }
}
