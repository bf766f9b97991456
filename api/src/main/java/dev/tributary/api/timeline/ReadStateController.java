package dev.tributary.api.timeline;

import jakarta.validation.Valid;
import dev.tributary.api.web.WireId;
import dev.tributary.api.ratelimit.ReadAlong;
import jakarta.validation.constraints.NotNull;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
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

    static final String UNREAD = "/api/v1/unread";

    private final HomeFeed home;
    private final Folders folders;
    private final KeptCounts counts;
    private final MarkerUndos undos;

    ReadStateController(HomeFeed home, Folders folders, KeptCounts counts, MarkerUndos undos) {
        this.undos = undos;
        this.home = home;
        this.folders = folders;
        this.counts = counts;
    }

    /** What {@code POST /api/v1/markers} takes: ids as strings, like every id on the wire; {@code up_to_id} is required. */
    record Marker(@NotNull @WireId String upToId, @Nullable @WireId(orEmpty = true) String sourceId,
            @Nullable @WireId(orEmpty = true) String folderId) {
    }

    /** How many entries a marker changed, and how to undo it. */
    record Marked(
            @Schema(description = "Entries this marker turned from unread to read.") int marked,
            @Schema(description = "DELETE /api/v1/markers/{undo_id} within 15 minutes makes exactly these entries unread again; "
                    + "null when nothing was marked (or the undo could not be kept).")
            @Nullable String undoId) {
    }

    /** How many entries an undo made unread again. */
    record Unmarked(@Schema(description = "Entries the undo turned from read to unread (those the marker marked that are "
            + "still in the inbox and read).") int unmarked) {
    }

    /**
     * Benchmarked against a trivial endpoint: one small Redis round trip while the node's kept
     * counts hold ({@link KeptCounts}; on a single Redis, the rate limit's), else the counters' round trip, and MySQL only when the
     * person's folders changed or they follow pulled sources.
     */
    @Operation(summary = "Unread counts over the unread horizon",
            description = "Exact counts of every unread entry the inbox keeps (not only the home timeline's newest entries), "
                    + "by_folder (the sum of by_source over each folder's sources), "
                    + "and trimmed_unread: how many unread entries the horizon has dropped.")
    @ApiResponse(responseCode = "200", description = "OK",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = UnreadView.class)))
    @GetMapping(UNREAD)
    ResponseEntity<byte[]> unread(Caller caller, HttpServletRequest request) {
        byte[] answer = counts.unread(caller.userId(), ReadAlong.read(request));
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(answer);
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

    @Operation(summary = "Mark read up to an id",
            description = "Marks read every entry of the caller's inbox (the whole unread horizon, not only the home timeline's "
                    + "window) up to and including up_to_id, optionally only those of source_id or of the sources filed in "
                    + "folder_id (not both; another person's folder is a 404); answers how many it marked. "
                    + "Large markers are applied in batches of bounded size, one transaction each.")
    @PostMapping("/api/v1/markers")
    Marked marker(Caller caller, @Valid @RequestBody Marker marker) {
        long upTo = Ids.required("up_to_id", marker.upToId());
        Long sourceId = Ids.optional("source_id", marker.sourceId());
        Long folderId = Ids.optional("folder_id", marker.folderId());
        // A set: a batch retried after a deadlock may name an entry twice.
        Set<Long> marked = new LinkedHashSet<>();
        int count = 0;
        if (folderId == null) {
            count = home.markReadUpTo(caller.userId(), upTo, sourceId, marked::add);
        } else {
            if (sourceId != null) {
                throw ApiProblem.invalid("folder_id", "cannot be given with source_id");
            }
            if (folders.find(caller.userId(), folderId).isEmpty()) {
                throw ApiProblem.notFound("folder");
            }
            for (long source : folders.sourcesIn(caller.userId(), folderId)) {
                count += home.markReadUpTo(caller.userId(), upTo, source, marked::add);
            }
        }
        return new Marked(count, undos.keep(caller.userId(), marked));
    }

    @Operation(summary = "Undo a marker",
            description = "Within 15 minutes of POST /api/v1/markers, makes the entries that marker turned read unread again: "
                    + "exactly those (entries read before it stay read), once. An unknown, expired or already undone "
                    + "undo_id, or another person's, is a 404.")
    @DeleteMapping("/api/v1/markers/{undo_id}")
    Unmarked undoMarker(Caller caller, @PathVariable("undo_id") String undoId) {
        return new Unmarked(undos.undo(caller.userId(), undoId).orElseThrow(() -> ApiProblem.notFound("marker")));
    }

    /** Idempotent: marking what is already so is fine; only an entry outside the caller's inbox is a 404. */
    private void mark(Caller caller, String id, boolean read) {
        long itemId = Ids.path(id, "item");
        boolean changed = read ? home.markRead(caller.userId(), itemId) : home.markUnread(caller.userId(), itemId);
        if (!changed && !home.holds(caller.userId(), itemId)) {
            throw ApiProblem.notFound("item");
        }
    }
}
