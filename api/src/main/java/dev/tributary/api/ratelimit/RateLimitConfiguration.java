package dev.tributary.api.ratelimit;

import dev.tributary.api.web.ProblemWriter;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Puts the rate limit on {@code /api/**}, the Fever API and the Google Reader API (sign-in included), right after Spring Security has authenticated the caller. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RateLimitSettings.class)
class RateLimitConfiguration {

    @Bean
    FilterRegistrationBean<RateLimitFilter> rateLimitFilter(Buckets buckets, RateLimitSettings settings, ProblemWriter problems,
            ObjectProvider<SecurityFilterProperties> security) {
        FilterRegistrationBean<RateLimitFilter> registration =
                new FilterRegistrationBean<>(new RateLimitFilter(buckets, settings, problems));
        registration.addUrlPatterns("/api/*", "/fever/*", "/fever", "/reader/*", "/accounts/ClientLogin");
        int securityOrder = security.getIfAvailable(SecurityFilterProperties::new).getOrder();
        registration.setOrder(securityOrder + 1);
        return registration;
    }
}
