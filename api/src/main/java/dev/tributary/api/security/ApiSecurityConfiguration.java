package dev.tributary.api.security;

import dev.tributary.api.web.Scope;
import jakarta.servlet.DispatcherType;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.csrf.HttpSessionCsrfTokenRepository;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The API's security: {@code /api/**} is stateless and takes bearer tokens (personal access
 * tokens or OAuth access tokens), {@code account} for managing the account ({@link AccountEndpoints}),
 * {@code read} for other GETs and {@code write} for the rest; the three
 * ways in (account creation, app registration, token creation by password) are open. The web
 * front end calls the same endpoints with its signed-in session and a CSRF token instead
 * ({@link SessionCallers}).
 */
@Configuration(proxyBeanMethods = false)
class ApiSecurityConfiguration implements WebMvcConfigurer {

    /**
     * No Spring Security observations at all. Disabled by name alone
     * ({@code management.observations.enable.spring.security=false}) each of the chain's ~15
     * filters is still wrapped per request in a no-op observation, on every request of every
     * endpoint. {@code http.server.requests} stays.
     */
    @Bean
    static SecurityObservationSettings noSecurityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    PasswordEncoder passwordEncoder() {
        return PasswordEncoderFactories.createDelegatingPasswordEncoder();
    }

    @Bean
    @Order(2)
    SecurityFilterChain apiSecurity(HttpSecurity http, ApiBearerAuthentication bearer, SecurityProblems problems) {
        http.securityMatcher("/api/**")
                .authorizeHttpRequests(requests -> requests
                        .dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR).permitAll()
                        .requestMatchers(HttpMethod.OPTIONS, "/api/**").permitAll()
                        .requestMatchers(HttpMethod.POST, "/api/v1/accounts", "/api/v1/apps", "/api/v1/tokens").permitAll()
                        .requestMatchers(AccountEndpoints.MATCHER).hasAuthority(Scope.ACCOUNT.authority())
                        .requestMatchers(HttpMethod.GET, "/api/**").hasAuthority(Scope.READ.authority())
                        .requestMatchers(HttpMethod.HEAD, "/api/**").hasAuthority(Scope.READ.authority())
                        .anyRequest().hasAuthority(Scope.WRITE.authority()))
                .oauth2ResourceServer(server -> server
                        .authenticationManagerResolver(request -> bearer)
                        .authenticationEntryPoint(problems)
                        .accessDeniedHandler(problems))
                .exceptionHandling(errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .securityContext(context -> context.securityContextRepository(new SessionCallers()))
                .requestCache(cache -> cache.disable())
                // Only requests that ride on the browser session can be forged cross-site; bearer ones can't.
                .csrf(csrf -> csrf.csrfTokenRepository(new HttpSessionCsrfTokenRepository())
                        .requireCsrfProtectionMatcher(SessionCallers.needsCsrfToken))
                .cors(cors -> cors.configurationSource(PublicCors.source()));
        return http.build();
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new CallerArgumentResolver());
    }
}
