package dev.tributary.api.operate;

import dev.tributary.api.web.ProblemWriter;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;

/**
 * The management endpoints answer operators' tools (curl, Prometheus), not browsers: no session,
 * no CSRF token, no sign-in. What protects them is where they listen, the management port on
 * loopback ({@code management.server.address}); the public port serves none of them. Loopback is
 * also reachable from a web page in a browser on the host, so writes must be JSON and carry no
 * {@code Origin} ({@link ManagementWrites}).
 */
@Configuration
class ManagementSecurity {

    @Bean
    @Order(0)
    SecurityFilterChain managementEndpointSecurity(HttpSecurity http, ProblemWriter problems) {
        http.securityMatcher(EndpointRequest.toAnyEndpoint())
                .authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                .csrf(csrf -> csrf.disable())
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(cache -> cache.disable())
                .addFilterBefore(new ManagementWrites(problems), AuthorizationFilter.class);
        return http.build();
    }
}
