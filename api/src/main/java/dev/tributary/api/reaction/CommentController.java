package dev.tributary.api.reaction;

import jakarta.validation.constraints.NotNull;
import dev.tributary.api.web.NonBlank;
import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.account.Accounts;
import dev.tributary.api.web.Caller;
import dev.tributary.api.item.ItemAccess;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.Account;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** Comments on items: listed oldest first, written by anyone who can see the item, deleted by their author. */
@RestController
class CommentController {

    static final int MAX_TEXT = 4000;

    private final Comments comments;
    private final ItemAccess items;
    private final Accounts accounts;

    CommentController(Comments comments, ItemAccess items, Accounts accounts) {
        this.comments = comments;
        this.items = items;
        this.accounts = accounts;
    }

    /** What a person sends to comment: plain text, shown as text (never as HTML). */
    record NewComment(@NotNull @NonBlank @Size(max = MAX_TEXT, message = "must be 1 to 4000 characters") String text) {
    }

    @GetMapping("/api/v1/items/{id}/comments")
    ResponseEntity<List<CommentView>> list(Caller caller, @PathVariable("id") String id,
            @RequestParam(name = "limit", required = false) @Nullable String limit,
            @RequestParam(name = "max_id", required = false) @Nullable String maxId,
            @RequestParam(name = "since_id", required = false) @Nullable String sinceId,
            @RequestParam(name = "min_id", required = false) @Nullable String minId) {
        long itemId = items.get(caller.userId(), id).id();
        List<Comment> page = comments.page(itemId, Paging.of(limit, maxId, sinceId, minId));
        ResponseEntity.BodyBuilder response = ResponseEntity.ok();
        if (!page.isEmpty()) {
            response.header(HttpHeaders.LINK, links(page.getFirst().id(), page.getLast().id()));
        }
        return response.body(views(page));
    }

    @PostMapping("/api/v1/items/{id}/comments")
    @ResponseStatus(HttpStatus.CREATED)
    CommentView add(Caller caller, @PathVariable("id") String id, @Valid @RequestBody NewComment comment) {
        long itemId = items.get(caller.userId(), id).id();
        return views(List.of(comments.add(itemId, caller.userId(), comment.text()))).getFirst();
    }

    @DeleteMapping("/api/v1/comments/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void delete(Caller caller, @PathVariable("id") String id) {
        Comment comment = comments.find(Ids.path(id, "comment")).orElseThrow(() -> ApiProblem.notFound("comment"));
        if (comment.userId() != caller.userId()) {
            throw ApiProblem.forbidden("Only its author may delete a comment.");
        }
        comments.delete(comment);
    }


    private List<CommentView> views(List<Comment> page) {
        Map<Long, String> usernames = new HashMap<>();
        for (StoredAccount account : accounts.getAll(page.stream().map(Comment::userId).distinct().toList())) {
            usernames.put(account.id(), account.body().username());
        }
        List<CommentView> views = new ArrayList<>(page.size());
        for (Comment comment : page) {
            views.add(new CommentView(Ids.format(comment.id()), Ids.format(comment.itemId()),
                    new CommentView.Author(Ids.format(comment.userId()), usernames.get(comment.userId())),
                    comment.text(), comment.createdAt()));
        }
        return views;
    }

    /**
     * Comments read oldest first, so {@code next} continues forwards ({@code min_id}: the ones
     * right after this page) and {@code prev} goes back ({@code max_id}: the ones before it).
     */
    private static String links(long firstId, long lastId) {
        return link("min_id", lastId, "next") + ", " + link("max_id", firstId, "prev");
    }

    private static String link(String param, long id, String rel) {
        String url = ServletUriComponentsBuilder.fromCurrentRequest()
                .replaceQueryParam("max_id").replaceQueryParam("since_id").replaceQueryParam("min_id")
                .replaceQueryParam(param, Ids.format(id))
                .build().toUriString();
        return "<" + url + ">; rel=\"" + rel + "\"";
    }
}
