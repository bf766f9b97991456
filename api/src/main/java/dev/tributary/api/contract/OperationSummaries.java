package dev.tributary.api.contract;

import io.swagger.v3.oas.models.Operation;
import java.util.Map;

/**
 * A one-line summary for each operation whose handler has no {@code @Operation(summary)}: what
 * a generated client shows as the method's doc and Swagger UI as the operation's title. Kept
 * here, beside the rest of the contract, rather than spread over the controllers.
 */
final class OperationSummaries {

    private static final Map<String, String> SUMMARIES = Map.ofEntries(
            Map.entry("POST /api/v1/accounts", "Create an account"),
            Map.entry("POST /api/v1/me/password", "Change the caller's password (ends their other sessions)"),
            Map.entry("POST /api/v1/me/sessions/revoke", "Sign out everywhere: every session, token, app grant and push ends"),
            Map.entry("GET /api/v1/invitations", "The caller's pending group invitations"),
            Map.entry("POST /api/v1/invitations/{id}/accept", "Accept a group invitation (become a member)"),
            Map.entry("DELETE /api/v1/invitations/{id}", "Decline a group invitation, optionally blocking the group's"),
            Map.entry("PUT /api/v1/groups/{id}/block", "Refuse a group's invitations"),
            Map.entry("DELETE /api/v1/groups/{id}/block", "Accept a group's invitations again"),
            Map.entry("GET /api/v1/me", "The caller's account"),
            Map.entry("POST /api/v1/me/feed_token", "Make a new private feed token, shown only in this answer (the old one stops working)"),
            Map.entry("POST /api/v1/tokens", "Create a personal access token (HTTP Basic); the token is shown once"),
            Map.entry("GET /api/v1/tokens", "The caller's personal access tokens, without their secrets"),
            Map.entry("DELETE /api/v1/tokens/{id}", "Revoke a personal access token"),
            Map.entry("POST /api/v1/apps", "Register an OAuth app; a confidential app's secret is shown once"),
            Map.entry("GET /api/v1/authorizations", "The OAuth apps the caller has authorised"),
            Map.entry("DELETE /api/v1/authorizations/{client_id}", "Withdraw an app's authorisation and its tokens"),
            Map.entry("POST /api/v1/posts", "Post to one's own feed"),
            Map.entry("DELETE /api/v1/posts/{id}", "Delete one's post"),
            Map.entry("GET /api/v1/items/{id}", "An item"),
            Map.entry("GET /api/v1/items/{id}/content", "An item's full article, read from its page and kept for every reader"),
            Map.entry("POST /api/v1/items/{id}/read", "Mark an item read"),
            Map.entry("DELETE /api/v1/items/{id}/read", "Mark an item unread"),
            Map.entry("GET /api/v1/items/{id}/comments", "An item's comments, oldest first"),
            Map.entry("POST /api/v1/items/{id}/comments", "Comment on an item"),
            Map.entry("DELETE /api/v1/comments/{id}", "Delete one's comment"),
            Map.entry("GET /api/v1/items/{id}/like", "An item's likes and whether the caller likes it"),
            Map.entry("POST /api/v1/items/{id}/like", "Like an item"),
            Map.entry("DELETE /api/v1/items/{id}/like", "Unlike an item"),
            Map.entry("GET /api/v1/sources/{id}", "A source"),
            Map.entry("GET /api/v1/sources/{id}/items", "A source's items, newest first"),
            Map.entry("GET /api/v1/users/{username}/feed", "A person's items, newest first"),
            Map.entry("POST /api/v1/me/feeds", "Attach a feed to one's profile"),
            Map.entry("GET /api/v1/me/feeds", "The feeds attached to one's profile"),
            Map.entry("DELETE /api/v1/me/feeds/{source_id}", "Detach a feed from one's profile"),
            Map.entry("POST /api/v1/groups", "Create a group"),
            Map.entry("GET /api/v1/groups", "The caller's groups"),
            Map.entry("GET /api/v1/groups/{id}", "A group"),
            Map.entry("PATCH /api/v1/groups/{id}", "Open a group to anyone who joins, or close it (owner only)"),
            Map.entry("GET /api/v1/groups/{id}/members", "A group's members"),
            Map.entry("POST /api/v1/groups/{id}/members", "Join a group (open ones), or invite a person (owner only)"),
            Map.entry("DELETE /api/v1/groups/{id}/members/{username}", "Remove a person from a group (not its owner)"),
            Map.entry("POST /api/v1/groups/{id}/posts", "Post to a group (members only)"),
            Map.entry("GET /api/v1/groups/{id}/feed", "A group's items, newest first"),
            Map.entry("GET /api/v1/subscriptions", "The caller's subscriptions"),
            Map.entry("DELETE /api/v1/subscriptions/{id}", "Unsubscribe (the timeline keeps what came)"),
            Map.entry("GET /api/v1/subscriptions.opml", "The caller's feed subscriptions as OPML 2.0"),
            Map.entry("POST /api/v1/subscriptions/import", "Subscribe to the feeds of an OPML file"),
            Map.entry("GET /api/v1/streaming/home", "The home timeline live, as Server-Sent Events"));

    private OperationSummaries() {
    }

    /** Gives the operation its summary unless its handler wrote one. */
    static void summarise(String operation, Operation spec) {
        if (spec.getSummary() == null || spec.getSummary().isBlank()) {
            spec.setSummary(SUMMARIES.get(operation));
        }
    }
}
