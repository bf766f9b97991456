package dev.tributary.api.opml;

import dev.tributary.api.opml.ImportResult.FolderError;
import dev.tributary.api.opml.ImportResult.ImportError;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.FeedRejections;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.pubsub.Folder;
import dev.tributary.pubsub.FolderLimitException;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.InvalidNameException;
import dev.tributary.pubsub.Names;
import dev.tributary.pubsub.PersonQuotas;
import dev.tributary.pubsub.Quota;
import dev.tributary.pubsub.QuotaExceededException;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.SourceKind;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscription;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Stored;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The caller's feed subscriptions as OPML, out and in, with their folders and the caller's titles.
 * An import fetches each new feed once ({@link FeedChecks}): a dead url is listed among the errors
 * with why, not imported; feeds whose check has not ended within the check budget are registered
 * unfetched and listed as {@code unchecked}, and a feed that then fails shows its error on its
 * source; a feed whose check failed in a way that may pass (a 5xx…) is subscribed all the same and
 * listed as {@code retrying}. An outline's title is the importer's alone: it goes on their
 * subscription, never on the shared source (whose title comes from the feed). Nested outlines
 * become folders (the innermost named one, see {@link OpmlReader}); a new subscription takes its
 * outline's title; an import only adds (an existing subscription keeps its title and media filter,
 * and is filed in the document's folders beside its own).
 */
@RestController
class OpmlController {

    static final MediaType OPML = MediaType.parseMediaType("text/x-opml");
    /** Longest url echoed back in an error: the document may hold absurdly long ones. */
    private static final int MAX_ECHOED_URL = 2048;

    private final Subscriptions subscriptions;
    private final Sources sources;
    private final FeedChecks checks;
    private final Folders folders;
    private final PersonQuotas quotas;
    private final FeedResolver resolver;

    OpmlController(Subscriptions subscriptions, Sources sources, FeedChecks checks, Folders folders, PersonQuotas quotas,
            FeedResolver resolver) {
        this.folders = folders;
        this.quotas = quotas;
        this.resolver = resolver;
        this.subscriptions = subscriptions;
        this.sources = sources;
        this.checks = checks;
    }

    /** Mapped literally: Spring 6+ matches no suffix patterns, so {@code .opml} is part of the path. */
    @GetMapping("/api/v1/subscriptions.opml")
    ResponseEntity<byte[]> export(Caller caller) {
        List<Subscription> all = subscriptions.of(caller.userId());
        Map<Long, Subscription> bySource = all.stream().collect(Collectors.toMap(Subscription::sourceId, Function.identity()));
        Map<Long, OpmlFeed> feedsById = new LinkedHashMap<>();
        for (Stored<Source> source : sources.getAll(all.stream().map(Subscription::sourceId).toList())) {
            if (source.body().kind() == SourceKind.FEED) {
                String title = bySource.get(source.id()).title();
                feedsById.put(source.id(), new OpmlFeed(source.body().url(), title != null ? title : source.body().title(),
                        source.body().siteUrl()));
            }
        }
        Map<Long, List<Folder>> filed = folders.foldersBySource(caller.userId());
        Map<Long, List<OpmlFeed>> byFolder = new LinkedHashMap<>();
        List<OpmlFeed> unfiled = new ArrayList<>();
        feedsById.forEach((sourceId, feed) -> {
            List<Folder> in = filed.getOrDefault(sourceId, List.of());
            if (in.isEmpty()) {
                unfiled.add(feed);
            }
            in.forEach(folder -> byFolder.computeIfAbsent(folder.id(), k -> new ArrayList<>()).add(feed));
        });
        List<OpmlWriter.Folder> outlines = folders.of(caller.userId()).stream()
                .map(folder -> new OpmlWriter.Folder(folder.name(), byFolder.getOrDefault(folder.id(), List.of())))
                .toList();
        byte[] document = OpmlWriter.write("Tributary subscriptions", Instant.now(), unfiled, outlines);
        return ResponseEntity.ok()
                .contentType(new MediaType(OPML, StandardCharsets.UTF_8))
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"subscriptions.opml\"")
                .body(document);
    }

    @PostMapping(path = "/api/v1/subscriptions/import", consumes = {"text/x-opml", "application/xml", "text/xml"})
    ImportResult importOpml(Caller caller, @RequestBody byte[] document) {
        List<OpmlFeed> outlines;
        try {
            outlines = OpmlReader.read(document);
        } catch (OpmlException e) {
            throw ApiProblem.badRequest(e.getMessage());
        }
        List<ImportError> errors = new ArrayList<>();
        // One read of what the person follows and one of the feeds already known, instead of a query per outline.
        Set<Long> followed = subscriptions.of(caller.userId()).stream().map(Subscription::sourceId)
                .collect(Collectors.toCollection(HashSet::new));
        Map<String, Stored<Source>> known = resolver.findAll(new LinkedHashSet<>(outlines.stream().map(OpmlFeed::xmlUrl).toList()));
        Set<String> pastLimit = pastLimit(outlines, followed, known);
        Map<String, FeedChecks.Checked> checked = checks.check(outlines.stream().map(OpmlFeed::xmlUrl)
                .filter(url -> !pastLimit.contains(url)).toList());
        Set<String> unfetched = new LinkedHashSet<>();
        Map<String, FeedChecks.Checked> failing = new LinkedHashMap<>();
        checked.forEach((url, outcome) -> {
            if (outcome.pending()) {
                unfetched.add(url);
            } else if (outcome.transientFailure()) {
                failing.put(url, outcome);
            }
        });
        Set<String> toRegister = new LinkedHashSet<>(unfetched);
        toRegister.addAll(failing.keySet());
        checked.putAll(registered(toRegister));
        Map<String, Long> folderIds = new HashMap<>();
        Map<String, FolderError> folderErrors = new LinkedHashMap<>();
        // A new subscription is filed as it is made, so its folders' rules act on its first items (issue 45).
        Map<Long, Set<Long>> newFilings = new HashMap<>();
        List<OpmlFeed> fresh = new ArrayList<>();
        for (OpmlFeed outline : outlines) {
            Stored<Source> source = pastLimit.contains(outline.xmlUrl()) ? null : checked.get(outline.xmlUrl()).source();
            if (source != null && !followed.contains(source.id())) {
                fresh.add(outline);
                Set<Long> in = newFilings.computeIfAbsent(source.id(), id -> new LinkedHashSet<>());
                Long folder = outline.folder() == null ? null : folder(caller, outline.folder(), folderIds, folderErrors);
                if (folder != null) {
                    in.add(folder);
                }
            }
        }
        List<Subscriptions.Wanted> wanted = new ArrayList<>();
        for (OpmlFeed outline : fresh) {
            Stored<Source> source = checked.get(outline.xmlUrl()).source();
            wanted.add(new Subscriptions.Wanted(source.id(), title(source, outline.title()), newFilings.get(source.id())));
        }
        // Subscribing again would reset a media filter the person chose: known ones are left alone.
        Subscriptions.Batch batch = subscriptions.subscribeAll(caller.userId(), wanted);
        Set<Long> created = batch.created().stream().map(Subscription::sourceId).collect(Collectors.toSet());
        Set<Long> refused = new HashSet<>(batch.pastLimit());
        QuotaExceededException full = new QuotaExceededException(Quota.SUBSCRIPTIONS, quotas.limit(Quota.SUBSCRIPTIONS));
        int imported = 0;
        int skipped = 0;
        List<String> unchecked = new ArrayList<>();
        List<ImportError> retrying = new ArrayList<>();
        Set<Long> counted = new HashSet<>();
        Map<Long, Set<Long>> filings = new LinkedHashMap<>();
        for (OpmlFeed outline : outlines) {
            if (pastLimit.contains(outline.xmlUrl())) {
                errors.add(refused(outline, full));
                continue;
            }
            FeedChecks.Checked outcome = checked.get(outline.xmlUrl());
            if (outcome.source() == null) {
                errors.add(new ImportError(echo(outline.xmlUrl()), outcome.reason(), outcome.refusal()));
                continue;
            }
            long sourceId = outcome.source().id();
            if (refused.contains(sourceId)) {
                errors.add(refused(outline, full));
                continue;
            }
            if (created.contains(sourceId) && counted.add(sourceId)) {
                imported++;
                if (unfetched.contains(outline.xmlUrl())) {
                    unchecked.add(echo(outline.xmlUrl()));
                }
                FeedChecks.Checked failed = failing.get(outline.xmlUrl());
                if (failed != null) {
                    retrying.add(new ImportError(echo(outline.xmlUrl()), failed.reason(),
                            "subscribed; its first fetch failed and will be retried: " + failed.refusal()));
                }
            } else {
                skipped++;
            }
            Long folder = outline.folder() == null ? null : folder(caller, outline.folder(), folderIds, folderErrors);
            Set<Long> in = filings.computeIfAbsent(sourceId, id -> new LinkedHashSet<>());
            if (folder != null) {
                in.add(folder);
            }
        }
        Map<Long, Set<Long>> refiled = new LinkedHashMap<>();
        filings.forEach((sourceId, in) -> {
            // A subscription made by this import was filed as it was made.
            if (!in.isEmpty() && !created.contains(sourceId)) {
                Set<Long> all = new LinkedHashSet<>(folders.foldersOf(caller.userId(), sourceId).stream().map(Folder::id).toList());
                if (all.addAll(in)) {
                    refiled.put(sourceId, all);
                }
            }
        });
        folders.fileAll(caller.userId(), refiled);
        return new ImportResult(imported, skipped, errors, unchecked, List.copyOf(folderErrors.values()), retrying);
    }

    /**
     * Feeds not fetched at import (their check did not end in time, or failed in a way that may
     * pass), registered to be crawled at once in one go. The source is shared by everyone who
     * follows the feed, so it gets nothing from the outline: its title and web page come from its
     * own fetch, and the outline's title goes to the importer's subscription alone ({@link #title}).
     */
    private Map<String, FeedChecks.Checked> registered(Collection<String> urls) {
        if (urls.isEmpty()) {
            return Map.of();
        }
        List<Sources.NewFeed> feeds = urls.stream().map(url -> new Sources.NewFeed(url, null, null)).toList();
        Map<String, FeedChecks.Checked> outcomes = new HashMap<>();
        resolver.registerAll(feeds).forEach((url, registration) -> outcomes.put(url, registration.source() != null
                ? FeedChecks.Checked.of(registration.source())
                : FeedChecks.Checked.refused(FeedRejections.wireName(registration.refusal().reason()), registration.refusal().getMessage())));
        return outcomes;
    }

    /**
     * The outlines that would take the person past their subscription limit, in document order
     * after the room left: not fetched or registered, as nobody would read them. Ones they follow
     * already take no room. The limit itself is enforced again, race-free, where each subscription is stored.
     */
    private Set<String> pastLimit(List<OpmlFeed> outlines, Set<Long> followedSources, Map<String, Stored<Source>> known) {
        long room = quotas.limit(Quota.SUBSCRIPTIONS) - followedSources.size();
        Set<String> past = new LinkedHashSet<>();
        for (String url : new LinkedHashSet<>(outlines.stream().map(OpmlFeed::xmlUrl).toList())) {
            Stored<Source> source = known.get(url);
            if (source != null && followedSources.contains(source.id())) {
                continue;
            }
            if (room > 0) {
                room--;
            } else {
                past.add(url);
            }
        }
        return past;
    }

    /** An outline past the person's subscription limit: listed with why, its feed left unfollowed. */
    private static ImportError refused(OpmlFeed outline, QuotaExceededException e) {
        return new ImportError(echo(outline.xmlUrl()), e.quota().reason(), "not subscribed: you follow " + e.limit()
                + " feeds, people and groups, the most a person may; unsubscribe from some and import again");
    }

    /**
     * A new subscription takes its outline's title when it differs from the source's own (a refused
     * title is left out): the person's name for the feed, kept on their subscription only.
     */
    private static @Nullable String title(Stored<Source> source, @Nullable String title) {
        if (title == null || title.isBlank() || title.strip().equals(source.body().title())) {
            return null;
        }
        try {
            return Names.clean("title", title, Subscriptions.MAX_TITLE_LENGTH);
        } catch (InvalidNameException e) {
            return null; // the source's own title will show
        }
    }

    /** The caller's folder of this name, made if need be; null (and an error, once per name) if it cannot be. */
    private @Nullable Long folder(Caller caller, String name, Map<String, Long> known, Map<String, FolderError> refused) {
        String key = Names.key(name.strip());
        if (known.containsKey(key)) {
            return known.get(key);
        }
        if (refused.containsKey(key)) {
            return null;
        }
        try {
            long id = folders.findOrCreate(caller.userId(), name).id();
            known.put(key, id);
            return id;
        } catch (FolderLimitException e) {
            refused.put(key, new FolderError(echo(name), "not made: you have " + Folders.MAX_FOLDERS
                    + " folders, the most a person may have; its feeds were subscribed unfiled"));
        } catch (InvalidNameException e) {
            refused.put(key, new FolderError(echo(name), "not made: its name " + e.problem() + "; its feeds were subscribed unfiled"));
        }
        return null;
    }

    private static String echo(String url) {
        return url.length() <= MAX_ECHOED_URL ? url : url.substring(0, MAX_ECHOED_URL) + "…";
    }
}
