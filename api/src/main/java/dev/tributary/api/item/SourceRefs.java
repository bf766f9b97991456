package dev.tributary.api.item;

import dev.tributary.api.account.StoredAccount;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tributary.api.account.Accounts;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Account;
import dev.tributary.pubsub.Group;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.SourceKind;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stored;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Names sources for people: a feed by its title (else its url), a person's source by their
 * username, a group's by its name. Every page of items names its sources, which change rarely,
 * so names are cached for a minute.
 */
@Component
public class SourceRefs {

    private final Sources sources;
    private final Accounts accounts;
    private final Groups groups;
    private final Cache<Long, SourceRef> cache = Caffeine.newBuilder().maximumSize(50_000)
            .expireAfterWrite(Duration.ofMinutes(1)).build();

    SourceRefs(Sources sources, Accounts accounts, Groups groups) {
        this.sources = sources;
        this.accounts = accounts;
        this.groups = groups;
    }

    /** The references of these sources; ids with no source are absent. */
    public Map<Long, SourceRef> of(Collection<Long> sourceIds) {
        Map<Long, SourceRef> found = new HashMap<>(cache.getAllPresent(sourceIds));
        Set<Long> missing = new LinkedHashSet<>(sourceIds);
        missing.removeAll(found.keySet());
        if (!missing.isEmpty()) {
            for (SourceRef ref : load(sources.getAll(missing))) {
                long id = Long.parseLong(ref.id());
                cache.put(id, ref);
                found.put(id, ref);
            }
        }
        return found;
    }

    public SourceRef of(Stored<Source> source) {
        return load(List.of(source)).getFirst();
    }

    /** Forgets a source's cached name (after a rename). */
    public void forget(long sourceId) {
        cache.invalidate(sourceId);
    }

    private List<SourceRef> load(List<Stored<Source>> loaded) {
        Map<Long, String> usernames = new HashMap<>();
        List<Long> owners = loaded.stream().filter(s -> s.body().kind() == SourceKind.USER)
                .map(s -> s.body().ownerId()).toList();
        for (StoredAccount account : accounts.getAll(owners)) {
            usernames.put(account.id(), account.body().username());
        }
        List<SourceRef> refs = new ArrayList<>(loaded.size());
        for (Stored<Source> source : loaded) {
            refs.add(new SourceRef(Ids.format(source.id()), source.body().kind().wireName(),
                    title(source.body(), usernames), url(source.body())));
        }
        return refs;
    }

    private @Nullable String title(Source source, Map<Long, String> usernames) {
        return switch (source.kind()) {
            case FEED -> source.title() != null && !source.title().isBlank() ? source.title() : source.url();
            case USER -> usernames.get(source.ownerId());
            case GROUP -> groups.find(source.ownerId()).map(Stored::body).map(Group::name).orElse(null);
        };
    }

    private static @Nullable String url(Source source) {
        return source.kind() == SourceKind.FEED ? source.url() : null;
    }
}
