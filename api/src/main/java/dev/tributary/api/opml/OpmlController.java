package dev.tributary.api.opml;

import dev.tributary.api.opml.ImportResult.ImportError;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.crawler.FeedRejectedException;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.SourceKind;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscription;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Stored;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The caller's feed subscriptions as OPML, out and in. An import registers each feed to be
 * crawled soon without fetching it now (hundreds of feeds would otherwise take minutes); a feed
 * that then fails shows its error on its source.
 */
@RestController
class OpmlController {

    static final MediaType OPML = MediaType.parseMediaType("text/x-opml");
    /** Longest url echoed back in an error: the document may hold absurdly long ones. */
    private static final int MAX_ECHOED_URL = 2048;

    private final Subscriptions subscriptions;
    private final Sources sources;
    private final FeedResolver feeds;

    OpmlController(Subscriptions subscriptions, Sources sources, FeedResolver feeds) {
        this.subscriptions = subscriptions;
        this.sources = sources;
        this.feeds = feeds;
    }

    /** Mapped literally: Spring 6+ matches no suffix patterns, so {@code .opml} is part of the path. */
    @GetMapping("/api/v1/subscriptions.opml")
    ResponseEntity<byte[]> export(Caller caller) {
        List<Long> sourceIds = subscriptions.of(caller.userId()).stream().map(Subscription::sourceId).toList();
        List<OpmlFeed> outlines = sources.getAll(sourceIds).stream()
                .filter(source -> source.body().kind() == SourceKind.FEED)
                .map(source -> new OpmlFeed(source.body().url(), source.body().title(), source.body().siteUrl()))
                .toList();
        byte[] document = OpmlWriter.write("Tributary subscriptions", Instant.now(), outlines);
        return ResponseEntity.ok()
                .contentType(new MediaType(OPML, StandardCharsets.UTF_8))
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"subscriptions.opml\"")
                .body(document);
    }

    @PostMapping(path = "/api/v1/subscriptions/import", consumes = {"text/x-opml", "application/xml"})
    ImportResult importOpml(Caller caller, @RequestBody byte[] document) {
        List<OpmlFeed> outlines;
        try {
            outlines = OpmlReader.read(document);
        } catch (OpmlException e) {
            throw ApiProblem.badRequest(e.getMessage());
        }
        int imported = 0;
        int skipped = 0;
        List<ImportError> errors = new ArrayList<>();
        for (OpmlFeed outline : outlines) {
            Stored<Source> source;
            try {
                source = feeds.register(outline.xmlUrl());
            } catch (FeedRejectedException e) {
                errors.add(new ImportError(echo(outline.xmlUrl()), e.getMessage()));
                continue;
            }
            // Subscribing again would reset a media filter the person chose: known ones are left alone.
            if (subscriptions.find(caller.userId(), source.id()).isPresent()
                    || !subscriptions.subscribe(caller.userId(), source.id(), null).created()) {
                skipped++;
            } else {
                imported++;
            }
        }
        return new ImportResult(imported, skipped, errors);
    }

    private static String echo(String url) {
        return url.length() <= MAX_ECHOED_URL ? url : url.substring(0, MAX_ECHOED_URL) + "…";
    }
}
