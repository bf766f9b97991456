package dev.tributary.api.security;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Everything outside {@code /api/**} and the OAuth endpoints: public pages and feeds, the
 * WebSub callback (hubs post without CSRF tokens; pushes are signed instead), operations
 * endpoints, and the browser login that the OAuth consent flow uses.
 */
@Configuration(proxyBeanMethods = false)
class SiteSecurityConfiguration {

    @Bean
    @Order(3)
    SecurityFilterChain siteSecurity(HttpSecurity http) {
        http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                .csrf(csrf -> csrf.ignoringRequestMatchers("/websub/**"))
                .formLogin(form -> form.permitAll());
        return http.build();
    }
}
