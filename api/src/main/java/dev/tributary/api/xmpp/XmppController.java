package dev.tributary.api.xmpp;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.XmppAddressTakenException;
import dev.tributary.pubsub.XmppLink;
import dev.tributary.pubsub.XmppLinkNotFoundException;
import dev.tributary.pubsub.XmppLinks;
import dev.tributary.pubsub.XmppOutbox;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The caller's own XMPP push ({@code /api/v1/me/xmpp}): link an address, prove it with the code
 * Tributary sends to it, choose what it receives, unlink. A 404 throughout while XMPP push is
 * not set up on this server.
 */
@RestController
class XmppController {

    private final XmppLinks links;
    private final XmppOutbox outbox;

    XmppController(XmppLinks links, XmppOutbox outbox) {
        this.links = links;
        this.outbox = outbox;
    }

    /** An address to link. */
    record LinkRequest(@Schema(description = "A bare XMPP address, localpart@domain, at most 500 characters; no resource.")
            @NotNull @Size(min = 3, max = 500) String address) {
    }

    /** A code sent to the linked address. */
    record ConfirmRequest(@Schema(description = "The code Tributary sent to the address.")
            @NotNull @Size(min = 1, max = 32) String code) {
    }

    /** What the address receives. */
    record DeliveryRequest(@Schema(description = "home, folder or starred.", allowableValues = {"home", "folder", "starred"})
            @NotNull @Pattern(regexp = "^(home|folder|starred)$", message = "must be home, folder or starred") String deliver,
            @Schema(description = "The folder, when deliver is folder.") @Nullable String folderId) {
    }

    /** The caller's link as the API shows it. */
    record XmppLinkView(String address, boolean verified, String deliver, @Nullable String folderId, Instant createdAt,
            @Nullable Instant verifiedAt) {

        static XmppLinkView of(XmppLink link) {
            return new XmppLinkView(link.address(), link.verified(), link.deliver(),
                    link.folderId() == null ? null : Ids.format(link.folderId()), link.createdAt(), link.verifiedAt());
        }
    }

    @Operation(summary = "The caller's linked XMPP address", description = "404 if none is linked.")
    @GetMapping("/api/v1/me/xmpp")
    XmppLinkView get(Caller caller) {
        on();
        return links.find(caller.userId()).map(XmppLinkView::of).orElseThrow(() -> ApiProblem.notFound("XMPP address"));
    }

    @Operation(summary = "Link an XMPP address", description = "Replaces a link the caller had. Tributary sends a code "
            + "from its own address to this one; nothing else reaches it until the code comes back "
            + "(POST /api/v1/me/xmpp/confirm). An address another account proved is a 409; one that is not a bare "
            + "localpart@domain address a 400.")
    @PostMapping("/api/v1/me/xmpp")
    @ResponseStatus(HttpStatus.CREATED)
    XmppLinkView link(Caller caller, @Valid @RequestBody LinkRequest request) {
        on();
        String address = XmppAddresses.normalise(request.address());
        try {
            return XmppLinkView.of(links.link(caller.userId(), address));
        } catch (XmppAddressTakenException e) {
            throw ApiProblem.conflict(e.getMessage());
        }
    }

    @Operation(summary = "Prove the linked address", description = "With the code sent to it. A wrong code is a 422 "
            + "(wrong_code); after 5 wrong codes, or 15 minutes, the code is spent: a 429 (code_spent), and linking "
            + "again sends a new one.")
    @PostMapping("/api/v1/me/xmpp/confirm")
    XmppLinkView confirm(Caller caller, @Valid @RequestBody ConfirmRequest request) {
        on();
        XmppLinks.Confirmation result;
        try {
            result = links.confirm(caller.userId(), request.code());
        } catch (XmppLinkNotFoundException e) {
            throw ApiProblem.notFound("XMPP address");
        } catch (XmppAddressTakenException e) {
            throw ApiProblem.conflict(e.getMessage());
        }
        return switch (result) {
            case PROVED -> XmppLinkView.of(links.find(caller.userId()).orElseThrow(() -> ApiProblem.notFound("XMPP address")));
            case WRONG -> throw ApiProblem.unprocessable("wrong-code", "wrong_code", "That is not the code sent.");
            case SPENT -> throw ApiProblem.tooManyRequests("The code is spent (too many attempts, or expired): link the "
                    + "address again for a new one.", 0);
        };
    }

    @Operation(summary = "Choose what the linked address receives", description = "home: every new entry of the home "
            + "timeline; folder: those of the subscriptions filed in folder_id; starred: items the caller stars. "
            + "Filter rules and \"one story, once\" apply as in the timeline.")
    @PutMapping("/api/v1/me/xmpp/delivery")
    XmppLinkView choose(Caller caller, @Valid @RequestBody DeliveryRequest request) {
        on();
        Long folder = null;
        if (request.deliver().equals("folder")) {
            if (request.folderId() == null) {
                throw ApiProblem.invalid("folder_id", "is needed when deliver is folder");
            }
            folder = Ids.path(request.folderId(), "folder");
        }
        try {
            return XmppLinkView.of(links.choose(caller.userId(), request.deliver(), folder));
        } catch (XmppLinkNotFoundException e) {
            throw ApiProblem.notFound("XMPP address");
        }
    }

    @Operation(summary = "Unlink the XMPP address", description = "Nothing more is sent to it from now on, including "
            + "what was still waiting.")
    @DeleteMapping("/api/v1/me/xmpp")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void unlink(Caller caller) {
        on();
        if (!links.unlink(caller.userId())) {
            throw ApiProblem.notFound("XMPP address");
        }
    }

    private void on() {
        if (!outbox.enabled()) {
            throw ApiProblem.notFound("XMPP push on this server");
        }
    }
}
