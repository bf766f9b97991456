package dev.tributary.api.folder;

import dev.tributary.api.web.NonBlank;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Folders;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The caller's folders: list, create, rename, delete (the subscriptions filed in a folder stay).
 * Filing a subscription is done on the subscription ({@code folder_ids}). Another person's folder
 * is a 404 like one that never existed.
 */
@RestController
class FolderController {

    private final Folders folders;

    FolderController(Folders folders) {
        this.folders = folders;
    }

    /** A folder's name: trimmed, 1 to 100 characters, no control characters; unique per person whatever its case. */
    record FolderName(@Schema(description = "1 to 100 characters once trimmed, no control characters; unique for the "
            + "caller without regard to case (else 409).") @NotNull @NonBlank String name) {
    }

    @Operation(summary = "The caller's folders", description = "By name, without regard to case.")
    @GetMapping("/api/v1/folders")
    List<FolderView> list(Caller caller) {
        return folders.of(caller.userId()).stream().map(FolderView::of).toList();
    }

    @Operation(summary = "Create a folder", description = "At most 100 folders a person (else 422 too_many_folders); "
            + "a name the caller already has, in any case, is a 409; a bad name a 422 naming the field.")
    @PostMapping("/api/v1/folders")
    @ResponseStatus(HttpStatus.CREATED)
    FolderView create(Caller caller, @Valid @RequestBody FolderName request) {
        return FolderView.of(folders.create(caller.userId(), request.name()));
    }

    @Operation(summary = "Rename a folder", description = "The same rules as creating one; changing only the case is a rename.")
    @PatchMapping("/api/v1/folders/{id}")
    FolderView rename(Caller caller, @PathVariable String id, @Valid @RequestBody FolderName request) {
        return FolderView.of(folders.rename(caller.userId(), Ids.path(id, "folder"), request.name()));
    }

    @Operation(summary = "Delete a folder", description = "The subscriptions filed in it stay, filed in their other folders if any.")
    @DeleteMapping("/api/v1/folders/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void delete(Caller caller, @PathVariable String id) {
        if (!folders.delete(caller.userId(), Ids.path(id, "folder"))) {
            throw ApiProblem.notFound("folder");
        }
    }
}
