package dev.tributary.crawler.parse;

import com.rometools.modules.mediarss.MediaEntryModule;
import com.rometools.modules.mediarss.types.MediaContent;
import com.rometools.modules.mediarss.types.MediaGroup;
import com.rometools.modules.mediarss.types.Metadata;
import com.rometools.modules.mediarss.types.Thumbnail;
import com.rometools.modules.mediarss.types.UrlReference;
import com.rometools.rome.feed.module.Module;
import dev.tributary.crawler.parse.ParsedFeed.Media;
import dev.tributary.crawler.parse.ParsedFeed.Text;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Media RSS ({@code media:content}, {@code media:group}, {@code media:thumbnail}) as Rome's module reads it, in RSS and Atom alike. */
final class MediaRss {

    private MediaRss() {
    }

    /** Adds the media of an entry's Media RSS module (contents first, then thumbnails, in document order). */
    static void addMedia(@Nullable Module module, List<Media> media) {
        if (!(module instanceof MediaEntryModule entry)) {
            return;
        }
        for (MediaContent content : entry.getMediaContents()) {
            addContent(content, media);
        }
        for (MediaGroup group : entry.getMediaGroups()) {
            for (MediaContent content : group.getContents()) {
                addContent(content, media);
            }
            addThumbnails(group.getMetadata(), media);
        }
        addThumbnails(entry.getMetadata(), media);
    }

    /** The entry's {@code media:description} (its own, else its first group's): what YouTube-style feeds say instead of a summary. */
    static @Nullable Text description(@Nullable Module module) {
        if (!(module instanceof MediaEntryModule entry)) {
            return null;
        }
        Text own = description(entry.getMetadata());
        if (own != null || entry.getMediaGroups().length == 0) {
            return own;
        }
        return description(entry.getMediaGroups()[0].getMetadata());
    }

    /** The entry's {@code media:title} (its own, else its first group's). */
    static @Nullable Text title(@Nullable Module module) {
        if (!(module instanceof MediaEntryModule entry)) {
            return null;
        }
        Metadata own = entry.getMetadata();
        if (own != null && own.getTitle() != null || entry.getMediaGroups().length == 0) {
            return own == null ? null : Text.of(own.getTitle(), "html".equalsIgnoreCase(own.getTitleType()));
        }
        Metadata group = entry.getMediaGroups()[0].getMetadata();
        return group == null ? null : Text.of(group.getTitle(), "html".equalsIgnoreCase(group.getTitleType()));
    }

    private static @Nullable Text description(@Nullable Metadata metadata) {
        return metadata == null ? null : Text.of(metadata.getDescription(), "html".equalsIgnoreCase(metadata.getDescriptionType()));
    }

    private static void addContent(MediaContent content, List<Media> media) {
        if (content.getReference() instanceof UrlReference reference && reference.getUrl() != null) {
            media.add(new Media(reference.getUrl().toString(), content.getType(), content.getMedium(),
                    content.getWidth(), content.getHeight(), content.getFileSize(), false));
        }
        addThumbnails(content.getMetadata(), media);
    }

    private static void addThumbnails(@Nullable Metadata metadata, List<Media> media) {
        if (metadata == null || metadata.getThumbnail() == null) {
            return;
        }
        for (Thumbnail thumbnail : metadata.getThumbnail()) {
            if (thumbnail.getUrl() != null) {
                media.add(new Media(thumbnail.getUrl().toString(), null, "image",
                        thumbnail.getWidth(), thumbnail.getHeight(), null, true));
            }
        }
    }
}
