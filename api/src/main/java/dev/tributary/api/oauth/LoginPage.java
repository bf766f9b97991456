package dev.tributary.api.oauth;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The sign-in form: the web front end's, and the one a person meets when an app sends them to
 * authorise it. Spring Security handles the POST (through {@code PasswordLogin}, so it is
 * throttled) and sends failures back here with {@code ?error}, {@code ?throttled=<minutes>} or
 * {@code ?busy} (too many sign-ins checked at once: nothing is locked, try again in a moment).
 */
@Controller
class LoginPage {

    @GetMapping("/login")
    String login(@RequestParam(required = false) @Nullable String error,
            @RequestParam(required = false) @Nullable String throttled,
            @RequestParam(required = false) @Nullable String busy,
            @RequestParam(name = "signed_out", required = false) @Nullable String signedOut, Model model) {
        model.addAttribute("signedOut", signedOut != null);
        model.addAttribute("wrongPassword", error != null);
        model.addAttribute("throttledMinutes", minutes(throttled));
        model.addAttribute("busy", busy != null);
        return "login";
    }

    /** Only a small number is shown: the message must not be the query string's to write. */
    private static @Nullable Integer minutes(@Nullable String throttled) {
        if (throttled == null || throttled.isEmpty() || throttled.length() > 4 || !throttled.chars().allMatch(Character::isDigit)) {
            return null;
        }
        return Integer.parseInt(throttled);
    }
}
