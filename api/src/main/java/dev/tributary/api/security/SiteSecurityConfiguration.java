package dev.tributary.api.security;

import dev.tributary.api.site.SitePaths;
import dev.tributary.crawler.VideoPlayers;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.security.web.authentication.SavedRequestAwareAuthenticationSuccessHandler;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;

/**
 * Everything outside {@code /api/**} and the OAuth endpoints: the web front end (its pages need a
 * signed-in person; sign-in, sign-up and sign-out), public feeds, the WebSub callback (hubs post
 * without CSRF tokens; pushes are signed instead), operations endpoints, and the login and consent
 * pages the OAuth flow shares with the front end. The Fever API ({@code /fever/}) is let through
 * without a session or CSRF token: apps post their {@code api_key}, which its controller checks.
 */
@Configuration(proxyBeanMethods = false)
class SiteSecurityConfiguration {

    /**
     * Pages run only their own scripts and styles, so HTML from a feed that got past both
     * sanitisers still could not run; images and media come from anywhere, as feeds link them;
     * frames only from the allow-listed video players.
     * No {@code form-action}: browsers apply it to the OAuth consent's redirect to the app.
     */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data: https: http:; media-src 'self' https: http:; connect-src 'self'; "
            + "object-src 'none'; frame-src " + frameSources() + "; frame-ancestors 'none'; base-uri 'none'";

    /** Frames only from the video players the sanitisers keep ({@link VideoPlayers}), over https. */
    private static String frameSources() {
        return VideoPlayers.hosts().stream().map(host -> "https://" + host).collect(java.util.stream.Collectors.joining(" "));
    }

    private static final RequestMatcher FEEDS = PathPatternRequestMatcher.withDefaults().matcher("/feeds/**");

    @Bean
    @Order(3)
    SecurityFilterChain siteSecurity(HttpSecurity http, PasswordLogin login, PersonSessions personSessions,
            Revocations revocations, SecurityProblems problems) {
        AccessDeniedHandler denied = new AccessDeniedHandlerImpl();
        SavedRequestAwareAuthenticationSuccessHandler toSavedRequest = new SavedRequestAwareAuthenticationSuccessHandler();
        http.authorizeHttpRequests(requests -> requests
                        .requestMatchers("/oauth2/consent").authenticated()
                        .requestMatchers(HttpMethod.GET, SitePaths.signedIn()).authenticated()
                        .anyRequest().permitAll())
                .csrf(csrf -> csrf.ignoringRequestMatchers("/websub/**", "/fever/**", "/reader/**", "/accounts/ClientLogin",
                        "/oauth2/register"))
                // A method a feed does not take is a 405, not the 403 of a missing CSRF token.
                .exceptionHandling(errors -> errors.accessDeniedHandler((request, response, failure) -> {
                    if (!FEEDS.matches(request) || !problems.methodNotAllowed(request, response)) {
                        denied.handle(request, response, failure);
                    }
                }))
                // The public feeds, the contract document and client registration only: pages get no CORS.
                .cors(cors -> cors.configurationSource(PublicCors.source()))
                .headers(headers -> headers
                        .contentSecurityPolicy(csp -> csp.policyDirectives(CONTENT_SECURITY_POLICY))
                        .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.SAME_ORIGIN)))
                // Before the session is invalidated: the streams it opened close on every node.
                .logout(logout -> logout.logoutSuccessUrl("/login?signed_out")
                        .addLogoutHandler((request, response, authentication) -> signedOut(request, revocations)))
                // Its own manager: the context's only AuthenticationManager bean is the API's bearer one.
                .authenticationManager(new ProviderManager(new PasswordLoginAuthenticationProvider(login)))
                .formLogin(form -> form.loginPage("/login").failureHandler(SiteSecurityConfiguration::loginFailed)
                        .successHandler((request, response, authentication) -> {
                            // After session-fixation protection: this is the id the browser keeps.
                            personSessions.signedIn(Long.parseLong(authentication.getName()), request.getSession().getId());
                            toSavedRequest.onAuthenticationSuccess(request, response, authentication);
                        })
                        .permitAll());
        return http.build();
    }

    private static void signedOut(HttpServletRequest request, Revocations revocations) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            revocations.announce(Revocations.sessionKey(session.getId()));
        }
    }

    /**
     * Back to the form, saying whether the password was wrong, the account is locked out (and for
     * how long), or too many sign-ins were being checked at once.
     */
    private static void loginFailed(HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        String query = !(failure instanceof PasswordLoginAuthenticationProvider.ThrottledException throttled) ? "error"
                : throttled.busy() ? "busy"
                : "throttled=" + Math.max(1, (throttled.retryAfter().toSeconds() + 59) / 60);
        response.sendRedirect(request.getContextPath() + "/login?" + query);
    }
}
