package dev.tributary.api.fever;

import dev.tributary.api.token.PersonalTokens;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.PresentedCredential;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * The {@code api_key} of a Fever call and who it acts for, looked up once per request: the rate
 * limit asks first (a key that acts for nobody counts against the client's address), and the
 * controller reads the answer it left on the request.
 */
@Component
class FeverKeys implements PresentedCredential {

    /** Fever keys are md5 hex (32 characters); a longer value is no key. */
    private static final int MAX_KEY_LENGTH = 64;
    private static final String CHECKED = FeverKeys.class.getName() + ".caller";

    private final PersonalTokens tokens;

    FeverKeys(PersonalTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public Optional<Presented> check(HttpServletRequest request) {
        if (!request.getRequestURI().startsWith(request.getContextPath() + "/fever")) {
            return Optional.empty();
        }
        String key = request.getParameter("api_key");
        if (key == null || key.isBlank()) {
            return Optional.empty();
        }
        // Lower-cased as the look-up does: one token's key in two cases is one bucket.
        return Optional.of(new Presented("fever", key.strip().toLowerCase(Locale.ROOT), caller(request, key).map(Caller::userId).orElse(null)));
    }

    /** Who the key acts for; empty if it is malformed or no token has it. */
    Optional<Caller> caller(HttpServletRequest request, @Nullable String key) {
        @SuppressWarnings("unchecked")
        Optional<Caller> checked = (Optional<Caller>) request.getAttribute(CHECKED);
        if (checked == null) {
            checked = key == null || key.isBlank() || key.length() > MAX_KEY_LENGTH ? Optional.empty()
                    : tokens.callerOfFeverKey(key);
            request.setAttribute(CHECKED, checked);
        }
        return checked;
    }
}
