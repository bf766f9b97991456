package dev.tributary.crawler.normalize;

import dev.tributary.crawler.parse.LinkResolver;
import dev.tributary.crawler.parse.ParsedFeed;
import dev.tributary.pubsub.Media;
import dev.tributary.pubsub.MediaType;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An entry's media, kept (absolute http(s) urls, one per url, what the entry carries before its
 * thumbnails, at most {@link #MAX_MEDIA}) and weighed to give the entry its {@link MediaType}.
 *
 * <p>The rules, first match wins: any video → VIDEO; any audio → AUDIO; a video (audio) the
 * content plays, where the entry carries no media, with at most a caption of text → VIDEO (AUDIO); an image (enclosure,
 * media:content, attachment) with at most a caption of text (under {@link #CAPTION_LENGTH}
 * characters) → IMAGE, while an article that merely comes with a picture stays TEXT, as news feeds
 * attach one to every story; a thumbnail with no other media and no text at all → IMAGE; a link with
 * under {@link #LINK_TEXT_LENGTH} characters of text and no media → LINK; else TEXT.
 */
final class MediaSelection {

    static final int MAX_MEDIA = 20;
    static final int CAPTION_LENGTH = 280;
    static final int LINK_TEXT_LENGTH = 20;

    private static final Pattern MIME = Pattern.compile("[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9*][a-z0-9!#$&^_.+*-]*");
    private static final int MAX_DIMENSION = 100_000;

    private final List<Media> media;
    private final boolean video;
    private final boolean audio;
    private final boolean image;
    private final boolean other;
    private final boolean thumbnail;
    /** A video (audio) the content plays, where the entry itself carried no media: weighed like an image. */
    private final boolean contentVideo;
    private final boolean contentAudio;

    private MediaSelection(List<Media> media, boolean video, boolean audio, boolean image, boolean other, boolean thumbnail) {
        this(media, video, audio, image, other, thumbnail, false, false);
    }

    private MediaSelection(List<Media> media, boolean video, boolean audio, boolean image, boolean other, boolean thumbnail,
            boolean contentVideo, boolean contentAudio) {
        this.media = media;
        this.video = video;
        this.audio = audio;
        this.image = image;
        this.other = other;
        this.thumbnail = thumbnail;
        this.contentVideo = contentVideo;
        this.contentAudio = contentAudio;
    }

    static MediaSelection of(List<ParsedFeed.Media> raw, URI base) {
        Map<URI, Media> kept = new LinkedHashMap<>();
        boolean[] kinds = new boolean[MediaType.values().length];
        boolean other = false;
        boolean thumbnail = false;
        // What the entry carries first, then its thumbnails: one url listed as both counts as carried.
        for (boolean thumbnails : new boolean[] {false, true}) {
            for (ParsedFeed.Media item : raw) {
                URI url = item.thumbnail() == thumbnails ? LinkResolver.resolveHttp(base, item.url()) : null;
                if (url == null || !kept.containsKey(url) && kept.size() >= MAX_MEDIA) {
                    continue;
                }
                MediaType kind = thumbnails ? MediaType.IMAGE : kind(item, url);
                boolean seen = kept.containsKey(url);
                kept.merge(url, media(url, item, kind), MediaSelection::fillIn);
                if (thumbnails) {
                    thumbnail |= !seen;
                } else if (kind == null) {
                    other = true;
                } else {
                    kinds[kind.ordinal()] = true;
                }
            }
        }
        return new MediaSelection(List.copyOf(kept.values()), kinds[MediaType.VIDEO.ordinal()],
                kinds[MediaType.AUDIO.ordinal()], kinds[MediaType.IMAGE.ordinal()], other, thumbnail);
    }

    /**
     * This selection, or, when the entry carries no media of its own, its content's as its media:
     * what it plays ({@code <video>}, {@code <audio>}, a player's iframe) before its images. A post
     * led by a picture is an image post, and one that is a YouTube player with a line of text a video
     * post, though its feed attached nothing; with more text than a caption, as for a picture, it
     * stays an article that comes with a video ({@link #type}).
     */
    MediaSelection orContent(List<Media> images, List<Media> videos, List<Media> audios) {
        if (!media.isEmpty() || images.isEmpty() && videos.isEmpty() && audios.isEmpty()) {
            return this;
        }
        List<Media> found = new ArrayList<>();
        for (List<Media> kind : List.of(videos, audios, images)) {
            kind.stream().limit(Math.max(0, MAX_MEDIA - found.size())).forEach(found::add);
        }
        return new MediaSelection(List.copyOf(found), false, false, !images.isEmpty(), false, false, !videos.isEmpty(),
                !audios.isEmpty());
    }

    List<Media> media() {
        return media;
    }

    /** The entry's media type, given how much visible text its summary has and whether it has a link. */
    MediaType type(int textLength, boolean hasLink) {
        if (video || contentVideo && textLength < CAPTION_LENGTH) {
            return MediaType.VIDEO;
        }
        if (audio || contentAudio && textLength < CAPTION_LENGTH) {
            return MediaType.AUDIO;
        }
        if (image && textLength < CAPTION_LENGTH) {
            return MediaType.IMAGE;
        }
        if (thumbnail && !image && !other && textLength == 0) {
            return MediaType.IMAGE;
        }
        if (hasLink && !image && !other && !thumbnail && textLength < LINK_TEXT_LENGTH) {
            return MediaType.LINK;
        }
        return MediaType.TEXT;
    }

    /** Video, audio or image by MIME type, else Media RSS medium, else file extension; null if none tells. */
    static @Nullable MediaType kind(ParsedFeed.Media item, URI url) {
        String type = mime(item.type());
        if (type != null) {
            MediaType byType = byMime(type);
            if (byType != null) {
                return byType;
            }
        }
        MediaType byMedium = item.medium() == null ? null : switch (item.medium().strip().toLowerCase(Locale.ROOT)) {
            case "image" -> MediaType.IMAGE;
            case "video" -> MediaType.VIDEO;
            case "audio" -> MediaType.AUDIO;
            default -> null;
        };
        return byMedium != null ? byMedium : byExtension(url);
    }

    private static @Nullable MediaType byMime(String mime) {
        if (mime.startsWith("image/")) {
            return MediaType.IMAGE;
        }
        if (mime.startsWith("video/")) {
            return MediaType.VIDEO;
        }
        if (mime.startsWith("audio/")) {
            return MediaType.AUDIO;
        }
        // YouTube's media:content is a Flash player; HLS and DASH playlists are video streams.
        return switch (mime) {
            case "application/x-shockwave-flash", "application/x-mpegurl", "application/vnd.apple.mpegurl",
                    "application/dash+xml" -> MediaType.VIDEO;
            case "application/ogg" -> MediaType.AUDIO;
            default -> null;
        };
    }

    private static @Nullable MediaType byExtension(URI url) {
        String path = url.getPath() == null ? "" : url.getPath().toLowerCase(Locale.ROOT);
        int dot = path.lastIndexOf('.');
        if (dot < 0 || dot < path.lastIndexOf('/')) {
            return null;
        }
        return switch (path.substring(dot + 1)) {
            case "jpg", "jpeg", "png", "gif", "webp", "avif", "svg", "heic" -> MediaType.IMAGE;
            case "mp4", "m4v", "mov", "webm", "mkv", "avi", "m3u8" -> MediaType.VIDEO;
            case "mp3", "m4a", "aac", "ogg", "oga", "opus", "wav", "flac" -> MediaType.AUDIO;
            default -> null;
        };
    }

    /**
     * The pub/sub media: the declared MIME type, else a wildcard of the kind found (image/*, which is
     * how a thumbnail is told from what the entry carries), else none.
     */
    private static Media media(URI url, ParsedFeed.Media item, @Nullable MediaType kind) {
        String type = mime(item.type());
        if (type == null && kind != null && kind != MediaType.TEXT && kind != MediaType.LINK) {
            type = kind.wireName() + "/*";
        }
        return new Media(url.toString(), type, dimension(item.width()), dimension(item.height()),
                item.length() != null && item.length() > 0 ? item.length() : null);
    }

    private static Media fillIn(Media first, Media later) {
        return new Media(first.url(), first.type() != null ? first.type() : later.type(),
                first.width() != null ? first.width() : later.width(),
                first.height() != null ? first.height() : later.height(),
                first.length() != null ? first.length() : later.length());
    }

    private static @Nullable String mime(@Nullable String declared) {
        if (declared == null) {
            return null;
        }
        int semicolon = declared.indexOf(';');
        String mime = (semicolon < 0 ? declared : declared.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
        return mime.length() <= 100 && MIME.matcher(mime).matches() ? mime : null;
    }

    private static @Nullable Integer dimension(@Nullable Integer value) {
        return value != null && value > 0 && value <= MAX_DIMENSION ? value : null;
    }
}
