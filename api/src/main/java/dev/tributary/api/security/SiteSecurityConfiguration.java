package dev.tributary.api.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Everything outside {@code /api/**} and the OAuth endpoints: public pages and feeds, the
 * WebSub callback (hubs post without CSRF tokens; pushes are signed instead), operations
 * endpoints, and the browser login and consent page that the OAuth flow uses.
 */
@Configuration(proxyBeanMethods = false)
class SiteSecurityConfiguration {

    @Bean
    @Order(3)
    SecurityFilterChain siteSecurity(HttpSecurity http, PasswordLogin login) {
        http.authorizeHttpRequests(requests -> requests
                        .requestMatchers("/oauth2/consent").authenticated()
                        .anyRequest().permitAll())
                .csrf(csrf -> csrf.ignoringRequestMatchers("/websub/**"))
                // Its own manager: the context's only AuthenticationManager bean is the API's bearer one.
                .authenticationManager(new ProviderManager(new PasswordLoginAuthenticationProvider(login)))
                .formLogin(form -> form.loginPage("/login").failureHandler(SiteSecurityConfiguration::loginFailed)
                        .permitAll());
        return http.build();
    }

    /** Back to the form, saying whether the password was wrong or the account is locked out (and for how long). */
    private static void loginFailed(HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        String query = failure instanceof PasswordLoginAuthenticationProvider.ThrottledException throttled
                ? "throttled=" + Math.max(1, (throttled.retryAfter().toSeconds() + 59) / 60)
                : "error";
        response.sendRedirect(request.getContextPath() + "/login?" + query);
    }
}
