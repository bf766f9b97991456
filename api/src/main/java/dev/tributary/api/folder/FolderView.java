package dev.tributary.api.folder;

import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Folder;
import io.swagger.v3.oas.annotations.media.Schema;

/** A folder as the API shows it, alone and on each subscription filed in it: {@code {id, name}}. */
@Schema(description = "One of the caller's folders (a Google Reader label): names are unique per person, "
        + "compared without regard to case.")
public record FolderView(String id, String name) {

    public static FolderView of(Folder folder) {
        return new FolderView(Ids.format(folder.id()), folder.name());
    }
}
