package dev.tributary.api.hub;

import dev.tributary.api.export.FeedTopics;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.crawler.PublicUrlSettings;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.LinkedHashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * The WebSub hub of Tributary's own exports ({@code POST /websub/hub}, W3C WebSub 5.1): takes
 * subscription and unsubscription requests for them, answers 202 and verifies intent with the
 * callback. Open to anyone, as a hub is: a home feed's topic carries its token, which is its key.
 */
@RestController
class HubController {

    private final HubRequests requests;
    private final HubSettings settings;
    private final PublicUrlSettings publicUrl;

    HubController(HubRequests requests, HubSettings settings, PublicUrlSettings publicUrl) {
        this.requests = requests;
        this.settings = settings;
        this.publicUrl = publicUrl;
    }

    @PostMapping(path = FeedTopics.HUB_PATH, consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    @Operation(summary = "Subscribe to or unsubscribe from an export (WebSub hub)", description = """
            The WebSub hub of this deployment's own feed exports (W3C WebSub). hub.topic must be an export url \
            (/feeds/users/{username}.atom|.rss, an open group's /feeds/groups/{id}.atom|.rss, /feeds/home.atom|.rss?token=), \
            as its Link rel="self" names it. \
            Answers 202 and then verifies intent with a GET to hub.callback (hub.challenge must be echoed with a 2xx). \
            Changes are then POSTed to the callback with Link rel="hub" and rel="self" and, when hub.secret was given, \
            X-Hub-Signature: sha256=<HMAC of the body>.""",
            responses = @ApiResponse(responseCode = "202", description = "Accepted; intent is verified with the callback next"))
    ResponseEntity<Void> request(
            @Parameter(description = "subscribe or unsubscribe") @RequestParam(name = "hub.mode", required = false) @Nullable String mode,
            @Parameter(description = "The export's url") @RequestParam(name = "hub.topic", required = false) @Nullable String topic,
            @Parameter(description = "Where to verify intent and deliver content: a public http(s) url")
            @RequestParam(name = "hub.callback", required = false) @Nullable String callback,
            @Parameter(description = "Seconds the subscription should last (bounded by the hub)")
            @RequestParam(name = "hub.lease_seconds", required = false) @Nullable String leaseSeconds,
            @Parameter(description = "Secret for X-Hub-Signature, less than 200 bytes")
            @RequestParam(name = "hub.secret", required = false) @Nullable String secret) throws InterruptedException {
        if (!settings.enabled()) {
            throw ApiProblem.notFound("hub");
        }
        requests.accept(mode, topic, callback, leaseSeconds, secret, bases());
        return ResponseEntity.accepted().build();
    }

    /** Where this deployment's exports live: its public url, and the root this request reached. */
    private Set<String> bases() {
        Set<String> bases = new LinkedHashSet<>();
        if (publicUrl.publicUrl() != null) {
            bases.add(trimmed(publicUrl.publicUrl().toString()));
        }
        bases.add(trimmed(ServletUriComponentsBuilder.fromCurrentContextPath().build().toUriString()));
        return bases;
    }

    private static String trimmed(String root) {
        return root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
    }
}
