package dev.tributary.api.contract;

import io.swagger.v3.oas.models.Operation;
import java.util.Map;

/**
 * The operationId of each operation, chosen on purpose: it becomes a method name in every
 * generated client, so it must read well ({@code starItem}, not springdoc's {@code stateItems2})
 * and must not move when a controller method is renamed. A new operation needs an entry here;
 * the contract test fails on one without.
 */
final class OperationIds {

    private static final Map<String, String> IDS = Map.ofEntries(
            Map.entry("POST /api/v1/accounts", "createAccount"),
            Map.entry("GET /api/v1/me/xmpp", "getXmppLink"),
            Map.entry("POST /api/v1/me/xmpp", "linkXmppAddress"),
            Map.entry("DELETE /api/v1/me/xmpp", "unlinkXmppAddress"),
            Map.entry("POST /api/v1/me/xmpp/confirm", "confirmXmppAddress"),
            Map.entry("PUT /api/v1/me/xmpp/delivery", "chooseXmppDelivery"),
            Map.entry("POST /api/v1/apps", "registerApp"),
            Map.entry("GET /api/v1/authorizations", "listAuthorizations"),
            Map.entry("DELETE /api/v1/authorizations/{client_id}", "withdrawAuthorization"),
            Map.entry("DELETE /api/v1/comments/{id}", "deleteComment"),
            Map.entry("GET /api/v1/folders", "listFolders"),
            Map.entry("POST /api/v1/folders", "createFolder"),
            Map.entry("DELETE /api/v1/folders/{id}", "deleteFolder"),
            Map.entry("PATCH /api/v1/folders/{id}", "renameFolder"),
            Map.entry("GET /api/v1/groups", "listGroups"),
            Map.entry("POST /api/v1/groups", "createGroup"),
            Map.entry("GET /api/v1/groups/{id}", "getGroup"),
            Map.entry("PATCH /api/v1/groups/{id}", "updateGroup"),
            Map.entry("PUT /api/v1/groups/{id}/block", "blockGroup"),
            Map.entry("DELETE /api/v1/groups/{id}/block", "unblockGroup"),
            Map.entry("GET /api/v1/groups/{id}/feed", "getGroupFeed"),
            Map.entry("GET /api/v1/groups/{id}/members", "listGroupMembers"),
            Map.entry("POST /api/v1/groups/{id}/members", "addGroupMember"),
            Map.entry("DELETE /api/v1/groups/{id}/members/{username}", "removeGroupMember"),
            Map.entry("POST /api/v1/groups/{id}/posts", "postToGroup"),
            Map.entry("GET /api/v1/invitations", "listInvitations"),
            Map.entry("POST /api/v1/invitations/{id}/accept", "acceptInvitation"),
            Map.entry("DELETE /api/v1/invitations/{id}", "declineInvitation"),
            Map.entry("GET /api/v1/items/{id}", "getItem"),
            Map.entry("GET /api/v1/items/{id}/content", "getItemContent"),
            Map.entry("GET /api/v1/items/{id}/comments", "listComments"),
            Map.entry("POST /api/v1/items/{id}/comments", "addComment"),
            Map.entry("GET /api/v1/items/{id}/like", "getLikes"),
            Map.entry("POST /api/v1/items/{id}/like", "likeItem"),
            Map.entry("DELETE /api/v1/items/{id}/like", "unlikeItem"),
            Map.entry("POST /api/v1/items/{id}/read", "markRead"),
            Map.entry("DELETE /api/v1/items/{id}/read", "markUnread"),
            Map.entry("GET /api/v1/items/{id}/star", "getStar"),
            Map.entry("POST /api/v1/items/{id}/star", "starItem"),
            Map.entry("DELETE /api/v1/items/{id}/star", "unstarItem"),
            Map.entry("POST /api/v1/markers", "markReadUpTo"),
            Map.entry("DELETE /api/v1/markers/{undo_id}", "undoMarker"),
            Map.entry("GET /api/v1/me", "getMe"),
            Map.entry("POST /api/v1/me/feed_token", "rotateFeedToken"),
            Map.entry("GET /api/v1/me/feeds", "listAttachedFeeds"),
            Map.entry("POST /api/v1/me/feeds", "attachFeed"),
            Map.entry("DELETE /api/v1/me/feeds/{source_id}", "detachFeed"),
            Map.entry("POST /api/v1/me/password", "changePassword"),
            Map.entry("POST /api/v1/me/sessions/revoke", "signOutEverywhere"),
            Map.entry("POST /api/v1/posts", "createPost"),
            Map.entry("DELETE /api/v1/posts/{id}", "deletePost"),
            Map.entry("GET /api/v1/rules", "listRules"),
            Map.entry("POST /api/v1/rules", "createRule"),
            Map.entry("GET /api/v1/rules/{id}", "getRule"),
            Map.entry("PATCH /api/v1/rules/{id}", "updateRule"),
            Map.entry("DELETE /api/v1/rules/{id}", "deleteRule"),
            Map.entry("GET /api/v1/search", "searchItems"),
            Map.entry("GET /api/v1/sources/{id}", "getSource"),
            Map.entry("GET /api/v1/sources/{id}/items", "listSourceItems"),
            Map.entry("GET /api/v1/streaming/home", "streamHome"),
            Map.entry("GET /api/v1/subscriptions", "listSubscriptions"),
            Map.entry("POST /api/v1/subscriptions", "subscribe"),
            Map.entry("PATCH /api/v1/subscriptions/{id}", "updateSubscription"),
            Map.entry("DELETE /api/v1/subscriptions/{id}", "unsubscribe"),
            Map.entry("POST /api/v1/subscriptions/{id}/refresh", "refreshFeed"),
            Map.entry("GET /api/v1/subscriptions.opml", "exportOpml"),
            Map.entry("POST /api/v1/subscriptions/import", "importOpml"),
            Map.entry("GET /api/v1/timelines/home", "getHomeTimeline"),
            Map.entry("GET /api/v1/timelines/starred", "getStarredTimeline"),
            Map.entry("GET /api/v1/tokens", "listTokens"),
            Map.entry("POST /api/v1/tokens", "createToken"),
            Map.entry("DELETE /api/v1/tokens/{id}", "revokeToken"),
            Map.entry("GET /api/v1/unread", "getUnread"),
            Map.entry("GET /api/v1/users/{username}/feed", "getUserFeed"),
            Map.entry("GET /feeds/home.rss", "getHomeRss"),
            Map.entry("GET /feeds/home.atom", "getHomeAtom"),
            Map.entry("GET /feeds/users/{username}.rss", "getUserRss"),
            Map.entry("GET /feeds/users/{username}.atom", "getUserAtom"),
            Map.entry("GET /feeds/groups/{id}.rss", "getGroupRss"),
            Map.entry("GET /feeds/groups/{id}.atom", "getGroupAtom"),
            Map.entry("POST /websub/hub", "requestHubSubscription"));

    private OperationIds() {
    }

    /** Names the operation; one without an entry keeps springdoc's (unique) id, which the contract test refuses. */
    static void name(String operation, Operation spec) {
        String id = IDS.get(operation);
        if (id != null) {
            spec.setOperationId(id);
        }
    }

    /** Whether this id was chosen here. */
    static boolean chosen(String operationId) {
        return IDS.containsValue(operationId);
    }
}
