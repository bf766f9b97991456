package dev.tributary.api.contract;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.links.Link;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The OpenAPI links of the operations that make something: which calls take the made thing's id
 * next, and from where in the answer ({@code $response.body#/id}). A client (and Schemathesis's
 * stateful phase) chains calls by them. One table, by operationId; OpenApiContractTest checks
 * that every target and parameter exists and every expression points at a property of the answer.
 */
final class ResponseLinks {

    private static final String ID = "$response.body#/id";
    /** What a client does next with an item it made (a post, a group post). */
    private static final List<String> ITEM_OPERATIONS = List.of("getItem", "getItemContent", "listComments", "addComment",
            "getLikes", "likeItem", "unlikeItem", "getStar", "starItem", "unstarItem", "markRead", "markUnread", "deletePost");

    /** A link from some answers of one operation to another, with the target's parameters. */
    private record Entry(String source, List<String> statuses, String target, Map<String, String> parameters) {
    }

    private static final List<Entry> TABLE = table();

    private ResponseLinks() {
    }

    private static List<Entry> table() {
        List<Entry> table = new ArrayList<>();
        for (String target : List.of("renameFolder", "deleteFolder")) {
            table.add(new Entry("createFolder", List.of("201"), target, Map.of("id", ID)));
        }
        table.add(new Entry("createFolder", List.of("201"), "getHomeTimeline", Map.of("folder_id", ID)));
        for (String target : List.of("updateSubscription", "unsubscribe", "refreshFeed")) {
            table.add(new Entry("subscribe", List.of("200", "201"), target, Map.of("id", ID)));
        }
        for (String target : List.of("getSource", "listSourceItems")) {
            table.add(new Entry("subscribe", List.of("200", "201"), target, Map.of("id", "$response.body#/source/id")));
            table.add(new Entry("attachFeed", List.of("200", "201"), target, Map.of("id", ID)));
            table.add(new Entry("createGroup", List.of("201"), target, Map.of("id", "$response.body#/source_id")));
        }
        table.add(new Entry("attachFeed", List.of("200", "201"), "detachFeed", Map.of("source_id", ID)));
        for (String target : List.of("getRule", "updateRule", "deleteRule")) {
            table.add(new Entry("createRule", List.of("201"), target, Map.of("id", ID)));
        }
        for (String target : List.of("getGroup", "updateGroup", "listGroupMembers", "addGroupMember", "postToGroup",
                "getGroupFeed")) {
            table.add(new Entry("createGroup", List.of("201"), target, Map.of("id", ID)));
        }
        for (String target : List.of("getGroup", "listGroupMembers", "getGroupFeed")) {
            table.add(new Entry("acceptInvitation", List.of("201"), target, Map.of("id", "$response.body#/group_id")));
        }
        table.add(new Entry("acceptInvitation", List.of("201"), "removeGroupMember",
                Map.of("id", "$response.body#/group_id", "username", "$response.body#/username")));
        for (String target : ITEM_OPERATIONS) {
            table.add(new Entry("createPost", List.of("201"), target, Map.of("id", ID)));
            table.add(new Entry("postToGroup", List.of("201"), target, Map.of("id", ID)));
        }
        table.add(new Entry("addComment", List.of("201"), "deleteComment", Map.of("id", ID)));
        for (String target : List.of("getItem", "listComments")) {
            table.add(new Entry("addComment", List.of("201"), target, Map.of("id", "$response.body#/item_id")));
        }
        // undo_id is null when nothing was marked; then there is nothing to undo.
        table.add(new Entry("markReadUpTo", List.of("200"), "undoMarker", Map.of("undo_id", "$response.body#/undo_id")));
        table.add(new Entry("createToken", List.of("201"), "revokeToken", Map.of("id", ID)));
        for (String target : List.of("getUserFeed", "getUserRss", "getUserAtom")) {
            table.add(new Entry("createAccount", List.of("201"), target, Map.of("username", "$response.body#/username")));
        }
        return List.copyOf(table);
    }

    /**
     * Adds the links to the source operations' answers, named by their target. Runs after the
     * operation ids are chosen; an entry naming an operation or answer the document lacks is a mistake here.
     */
    static void declare(OpenAPI openApi) {
        Map<String, Operation> byId = new HashMap<>();
        openApi.getPaths().values().forEach(item -> item.readOperations().forEach(operation ->
                byId.put(operation.getOperationId(), operation)));
        for (Entry entry : TABLE) {
            Operation source = byId.get(entry.source());
            if (source == null || !byId.containsKey(entry.target())) {
                throw new IllegalStateException("A link between operations the document lacks: " + entry);
            }
            for (String status : entry.statuses()) {
                ApiResponse response = source.getResponses() == null ? null : source.getResponses().get(status);
                if (response == null || response.get$ref() != null) {
                    throw new IllegalStateException("A link from an answer the operation does not give in place: " + entry);
                }
                Link link = new Link().operationId(entry.target());
                // Sorted, so the document is the same text whatever order Map.of iterates in.
                new TreeMap<>(entry.parameters()).forEach(link::parameters);
                Map<String, Link> links = response.getLinks() == null ? new LinkedHashMap<>() : response.getLinks();
                links.put(entry.target(), link);
                response.setLinks(links);
            }
        }
    }
}
