package dev.tributary.api.token;

import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.security.LoginRefusedException;
import dev.tributary.api.security.PasswordLogin;
import dev.tributary.api.web.ApiProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Checks the HTTP Basic credentials of {@code POST /api/v1/tokens} before its body is read: a
 * caller who cannot sign in learns 401 (with the Basic challenge), never what was wrong with a body
 * it may not send. The account signed in is left in a request attribute for the controller.
 */
@Component
class BasicLoginFirst implements HandlerInterceptor, WebMvcConfigurer {

    static final String ACCOUNT = BasicLoginFirst.class.getName() + ".account";

    private final PasswordLogin login;

    BasicLoginFirst(PasswordLogin login) {
        this.login = login;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this).addPathPatterns("/api/v1/tokens");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if ("POST".equals(request.getMethod())) {
            try {
                request.setAttribute(ACCOUNT, basicLogin(request.getHeader("Authorization"), request.getRemoteAddr()));
            } catch (ApiProblem refused) {
                if (fromPageScript(request)) {
                    // A browser answered 401 with a Basic challenge opens its own sign-in dialog over
                    // the page (the settings page then waits on it): the page shows the problem itself.
                    refused.getHeaders().remove("WWW-Authenticate");
                }
                throw refused;
            }
        }
        return true;
    }

    /** A page's own fetch: browsers send Sec-Fetch-Mode on every request, {@code navigate} only for pages themselves. */
    private static boolean fromPageScript(HttpServletRequest request) {
        String mode = request.getHeader("Sec-Fetch-Mode");
        return mode != null && !mode.equals("navigate") || request.getHeader("X-Requested-With") != null;
    }

    /** The account {@link #preHandle} signed in. */
    static StoredAccount account(HttpServletRequest request) {
        return (StoredAccount) request.getAttribute(ACCOUNT);
    }

    private StoredAccount basicLogin(@Nullable String authorization, String address) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            throw ApiProblem.unauthorizedBasic("Creating a token takes the account's username and password as HTTP Basic.");
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorization.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            throw ApiProblem.unauthorizedBasic("The HTTP Basic credentials are not valid base64.");
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            throw ApiProblem.unauthorizedBasic("The HTTP Basic credentials need the form username:password.");
        }
        try {
            return login.authenticate(decoded.substring(0, colon), decoded.substring(colon + 1), address);
        } catch (LoginRefusedException refused) {
            if (refused.retryAfter() != null) {
                throw ApiProblem.tooManyRequests(refused.getMessage(), refused.retryAfter().toSeconds() + 1);
            }
            throw ApiProblem.unauthorizedBasic(refused.getMessage());
        }
    }
}
