package dev.tributary.api.oauth;

import dev.tributary.api.web.Scope;
import dev.tributary.api.web.ApiProblem;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationConsent;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationConsentService;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Where the authorization server sends a signed-in person to approve an app: the app's name and
 * what each requested scope lets it do. The form posts back to the authorization endpoint
 * (with the CSRF token); "Deny" posts no scopes, which the server answers with access_denied.
 */
@Controller
class ConsentPage {

    private final RegisteredClientRepository clients;
    private final OAuth2AuthorizationConsentService consents;

    ConsentPage(RegisteredClientRepository clients, OAuth2AuthorizationConsentService consents) {
        this.clients = clients;
        this.consents = consents;
    }

    /** A scope as the page explains it. */
    record ScopeView(String name, String description) {
    }

    @GetMapping(AuthorizationServerConfiguration.CONSENT_PAGE)
    String consent(Principal principal, @RequestParam(OAuth2ParameterNames.CLIENT_ID) String clientId,
            @RequestParam(OAuth2ParameterNames.SCOPE) String scope, @RequestParam(OAuth2ParameterNames.STATE) String state,
            Model model) {
        RegisteredClient client = clientId.length() > 100 ? null : clients.findByClientId(clientId);
        if (client == null) {
            throw ApiProblem.badRequest("No such app.");
        }
        OAuth2AuthorizationConsent previous = consents.findById(client.getId(), principal.getName());
        Set<String> approved = previous == null ? Set.of() : previous.getScopes();
        List<ScopeView> toApprove = new ArrayList<>();
        List<ScopeView> alreadyApproved = new ArrayList<>();
        for (String name : scope.split(" ")) {
            Scope.parseForApp(name).map(ConsentPage::view)
                    .ifPresent(view -> (approved.contains(name) ? alreadyApproved : toApprove).add(view));
        }
        model.addAttribute("clientId", client.getClientId());
        model.addAttribute("clientName", client.getClientName());
        model.addAttribute("state", state);
        model.addAttribute("scopesToApprove", toApprove);
        model.addAttribute("previouslyApproved", alreadyApproved);
        return "consent";
    }

    private static ScopeView view(Scope scope) {
        return switch (scope) {
            case READ -> new ScopeView("read", "Read your home timeline, subscriptions, profile and unread counts.");
            case WRITE -> new ScopeView("write", "Post, subscribe, comment, like and mark items read on your behalf.");
            case ACCOUNT -> throw new IllegalArgumentException("no app is granted the account scope");
        };
    }
}
