package dev.tributary.api.timeline;

import dev.tributary.api.security.Caller;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.ReadState;
import dev.tributary.pubsub.UnreadCounts;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** Read marks on the caller's own inbox, and their unread counts. */
@RestController
class ReadStateController {

    private final ReadState readState;
    private final UnreadCounts unread;

    ReadStateController(ReadState readState, UnreadCounts unread) {
        this.readState = readState;
        this.unread = unread;
    }

    /** What {@code POST /api/v1/markers} takes: ids as strings, like every id on the wire. */
    record Marker(@Nullable String upToId, @Nullable String sourceId) {
    }

    /** How many entries a marker changed. */
    record Marked(int marked) {
    }

    /** Benchmarked against a trivial endpoint: one Redis read, nothing else. */
    @GetMapping("/api/v1/unread")
    UnreadView unread(Caller caller) {
        return UnreadView.of(unread.of(caller.userId()));
    }

    @PostMapping("/api/v1/items/{id}/read")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void markRead(Caller caller, @PathVariable("id") String id) {
        mark(caller, id, true);
    }

    @DeleteMapping("/api/v1/items/{id}/read")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void markUnread(Caller caller, @PathVariable("id") String id) {
        mark(caller, id, false);
    }

    @PostMapping("/api/v1/markers")
    Marked marker(Caller caller, @RequestBody Marker marker) {
        long upTo = Ids.required("up_to_id", marker.upToId());
        Long sourceId = Ids.optional("source_id", marker.sourceId());
        return new Marked(readState.markReadUpTo(caller.userId(), upTo, sourceId));
    }

    /** Idempotent: marking what is already so is fine; only an entry outside the caller's inbox is a 404. */
    private void mark(Caller caller, String id, boolean read) {
        long itemId = Ids.path(id, "item");
        boolean changed = read ? readState.markRead(caller.userId(), itemId) : readState.markUnread(caller.userId(), itemId);
        if (!changed && !readState.inInbox(caller.userId(), itemId)) {
            throw ApiProblem.notFound("item");
        }
    }
}
