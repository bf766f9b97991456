package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * A person's folders (FriendFeed's lists, Google Reader's labels) and which of their subscriptions
 * are filed in which: {@code folders} and {@code folder_sources}, both keyed by person first.
 * Many to many; names unique per person without regard to case ({@link Names#key}), at most
 * {@link #MAX_FOLDERS}. Deleting a folder keeps its subscriptions; unsubscribing drops the
 * subscription's memberships ({@link Subscriptions#unsubscribe}).
 */
@Service
public class Folders {

    public static final int MAX_FOLDERS = 100;
    public static final int MAX_NAME_LENGTH = 100;
    /** Filings written by one statement of {@link #fileAll}. */
    private static final int ROWS_PER_INSERT = 500;
    /** Longest case-folded key the table holds; folding may lengthen a name. */
    private static final int MAX_KEY_LENGTH = 300;

    private static final RowMapper<Folder> FOLDER = (rs, n) -> new Folder(rs.getLong("id"), rs.getLong("user_id"),
            rs.getString("name"), rs.getTimestamp("created_at").toInstant());

    private final JdbcClient jdbc;
    private final IdGenerator ids;
    private final Transactions tx;
    private final Inbox inbox;
    private final Clock clock;

    Folders(JdbcClient jdbc, IdGenerator ids, Transactions tx, Inbox inbox, ObjectProvider<Clock> clock) {
        this.jdbc = jdbc;
        this.ids = ids;
        this.tx = tx;
        this.inbox = inbox;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * A new folder.
     *
     * @throws InvalidNameException if the name breaks {@link Names}' rules
     * @throws FolderNameTakenException if the person has a folder of that name, in any case
     * @throws FolderLimitException if they have {@link #MAX_FOLDERS} already
     */
    public Folder create(long userId, String name) {
        String cleaned = clean(name);
        try {
            return tx.write("create folder of " + userId, status -> insert(userId, cleaned));
        } catch (DuplicateKeyException e) {
            throw new FolderNameTakenException(cleaned);
        }
    }

    /** The person's folder of this name (in any case), created if there is none: how imports and labels name folders. */
    public Folder findOrCreate(long userId, String name) {
        String cleaned = clean(name);
        Optional<Folder> existing = byName(userId, cleaned);
        if (existing.isPresent()) {
            return existing.get();
        }
        try {
            return tx.write("create folder of " + userId, status -> insert(userId, cleaned));
        } catch (DuplicateKeyException e) {
            // A concurrent call created it first.
            return byName(userId, cleaned).orElseThrow(() -> e);
        }
    }

    /** The person's folder whose name is this one, whatever its case. */
    public Optional<Folder> byName(long userId, String name) {
        return jdbc.sql("SELECT * FROM folders WHERE user_id = ? AND name_key = ?")
                .params(userId, Names.key(name.strip())).query(FOLDER).optional();
    }

    private Folder insert(long userId, String cleaned) {
        // Locking the person's folder rows serialises concurrent creators, so the cap holds.
        int count = jdbc.sql("SELECT id FROM folders WHERE user_id = ? FOR UPDATE").param(userId).query(Long.class).list().size();
        if (count >= MAX_FOLDERS) {
            throw new FolderLimitException();
        }
        Folder folder = new Folder(ids.next(), userId, cleaned, clock.instant().truncatedTo(ChronoUnit.MICROS));
        jdbc.sql("INSERT INTO folders (user_id, id, name, name_key, created_at) VALUES (?, ?, ?, ?, ?)")
                .params(userId, folder.id(), cleaned, Names.key(cleaned), folder.createdAt()).update();
        inbox.foldersChanged(userId);
        return folder;
    }

    /**
     * Renames a folder (changing only its case is a rename too).
     *
     * @throws FolderNotFoundException if the person has no such folder
     */
    public Folder rename(long userId, long folderId, String name) {
        String cleaned = clean(name);
        try {
            return tx.write("rename folder " + folderId, status -> {
                Folder folder = find(userId, folderId).orElseThrow(() -> new FolderNotFoundException(folderId));
                jdbc.sql("UPDATE folders SET name = ?, name_key = ? WHERE user_id = ? AND id = ?")
                        .params(cleaned, Names.key(cleaned), userId, folderId).update();
                // Pages kept for the person name their entries' folders (sync APIs' labels): void them.
                inbox.personChanged(userId);
                inbox.foldersChanged(userId);
                return new Folder(folder.id(), userId, cleaned, folder.createdAt());
            });
        } catch (DuplicateKeyException e) {
            throw new FolderNameTakenException(cleaned);
        }
    }

    /** Deletes a folder, its memberships and its rules; the subscriptions filed in it stay. False if there was none. */
    public boolean delete(long userId, long folderId) {
        return tx.write("delete folder " + folderId, status -> {
            jdbc.sql("DELETE FROM folder_sources WHERE user_id = ? AND folder_id = ?").params(userId, folderId).update();
            // A rule of the folder would apply to nothing again: it goes with it.
            jdbc.sql("DELETE FROM rules WHERE user_id = ? AND folder_id = ?").params(userId, folderId).update();
            inbox.personChanged(userId);
            inbox.foldersChanged(userId);
            return jdbc.sql("DELETE FROM folders WHERE user_id = ? AND id = ?").params(userId, folderId).update() > 0;
        });
    }

    public Optional<Folder> find(long userId, long folderId) {
        return jdbc.sql("SELECT * FROM folders WHERE user_id = ? AND id = ?").params(userId, folderId).query(FOLDER).optional();
    }

    /** The person's folders, by name (case-folded). */
    public List<Folder> of(long userId) {
        return jdbc.sql("SELECT * FROM folders WHERE user_id = ? ORDER BY name_key, id").param(userId).query(FOLDER).list();
    }

    /**
     * Files the person's subscription to {@code sourceId} in exactly these folders (replacing
     * what it was filed in; empty: in none).
     *
     * @throws FolderNotFoundException naming the first id that is not one of the person's folders
     * @throws SourceNotFoundException if the person does not follow the source
     */
    public void file(long userId, long sourceId, Collection<Long> folderIds) {
        Set<Long> wanted = new LinkedHashSet<>(folderIds);
        tx.run("file " + sourceId + " of " + userId, () -> {
            if (jdbc.sql("SELECT id FROM subscriptions WHERE user_id = ? AND source_id = ? FOR UPDATE")
                    .params(userId, sourceId).query(Long.class).optional().isEmpty()) {
                throw new SourceNotFoundException(sourceId);
            }
            if (!wanted.isEmpty()) {
                String in = String.join(", ", Collections.nCopies(wanted.size(), "?"));
                List<Long> known = jdbc.sql("SELECT id FROM folders WHERE user_id = ? AND id IN (" + in + ")")
                        .params(args(userId, wanted)).query(Long.class).list();
                for (Long id : wanted) {
                    if (!known.contains(id)) {
                        throw new FolderNotFoundException(id);
                    }
                }
            }
            jdbc.sql("DELETE FROM folder_sources WHERE user_id = ? AND source_id = ?").params(userId, sourceId).update();
            inbox.personChanged(userId);
            inbox.foldersChanged(userId);
            for (Long folderId : wanted) {
                jdbc.sql("INSERT INTO folder_sources (user_id, folder_id, source_id) VALUES (?, ?, ?)")
                        .params(userId, folderId, sourceId).update();
            }
        });
    }

    /**
     * {@link #file} for many subscriptions in one transaction and a few statements (an import
     * files hundreds: one transaction each was most of its time). Each source's folders are
     * replaced by exactly those given; all or nothing.
     *
     * @throws FolderNotFoundException naming the first id that is not one of the person's folders
     * @throws SourceNotFoundException naming a source the person does not follow
     */
    public void fileAll(long userId, Map<Long, ? extends Collection<Long>> foldersBySource) {
        if (foldersBySource.isEmpty()) {
            return;
        }
        Set<Long> sourceIds = foldersBySource.keySet();
        Set<Long> wanted = new LinkedHashSet<>();
        foldersBySource.values().forEach(wanted::addAll);
        tx.run("file " + sourceIds.size() + " sources of " + userId, () -> {
            String sourcesIn = String.join(", ", Collections.nCopies(sourceIds.size(), "?"));
            List<Long> followed = jdbc.sql("SELECT source_id FROM subscriptions WHERE user_id = ? AND source_id IN (" + sourcesIn
                    + ") FOR UPDATE").params(args(userId, sourceIds)).query(Long.class).list();
            sourceIds.stream().filter(id -> !followed.contains(id)).findFirst().ifPresent(id -> {
                throw new SourceNotFoundException(id);
            });
            if (!wanted.isEmpty()) {
                List<Long> known = jdbc.sql("SELECT id FROM folders WHERE user_id = ? AND id IN ("
                        + String.join(", ", Collections.nCopies(wanted.size(), "?")) + ")")
                        .params(args(userId, wanted)).query(Long.class).list();
                wanted.stream().filter(id -> !known.contains(id)).findFirst().ifPresent(id -> {
                    throw new FolderNotFoundException(id);
                });
            }
            jdbc.sql("DELETE FROM folder_sources WHERE user_id = ? AND source_id IN (" + sourcesIn + ")")
                    .params(args(userId, sourceIds)).update();
            inbox.personChanged(userId);
            inbox.foldersChanged(userId);
            List<Object> rows = new ArrayList<>();
            foldersBySource.forEach((sourceId, folderIds) -> new LinkedHashSet<>(folderIds).forEach(folderId -> {
                rows.add(userId);
                rows.add(folderId);
                rows.add(sourceId);
            }));
            for (int from = 0; from < rows.size(); from += 3 * ROWS_PER_INSERT) {
                List<Object> chunk = rows.subList(from, Math.min(rows.size(), from + 3 * ROWS_PER_INSERT));
                jdbc.sql("INSERT INTO folder_sources (user_id, folder_id, source_id) VALUES "
                        + String.join(", ", Collections.nCopies(chunk.size() / 3, "(?, ?, ?)"))).params(chunk.toArray()).update();
            }
        });
    }

    /** The folders a subscription of the person is filed in, by name. */
    public List<Folder> foldersOf(long userId, long sourceId) {
        return jdbc.sql("""
                SELECT f.* FROM folder_sources m JOIN folders f ON f.user_id = m.user_id AND f.id = m.folder_id
                WHERE m.user_id = ? AND m.source_id = ? ORDER BY f.name_key, f.id
                """).params(userId, sourceId).query(FOLDER).list();
    }

    /** For each of the person's subscriptions filed anywhere, its folders by name: one query. */
    public Map<Long, List<Folder>> foldersBySource(long userId) {
        Map<Long, List<Folder>> bySource = new LinkedHashMap<>();
        jdbc.sql("""
                SELECT m.source_id, f.* FROM folder_sources m JOIN folders f ON f.user_id = m.user_id AND f.id = m.folder_id
                WHERE m.user_id = ? ORDER BY f.name_key, f.id
                """).param(userId).query((rs, n) -> {
                    bySource.computeIfAbsent(rs.getLong("source_id"), k -> new ArrayList<>()).add(FOLDER.mapRow(rs, n));
                    return null;
                }).list();
        return bySource;
    }

    /** The sources filed in one of the person's folders (empty for a folder that is not theirs). */
    public Set<Long> sourcesIn(long userId, long folderId) {
        return new LinkedHashSet<>(jdbc.sql("SELECT source_id FROM folder_sources WHERE user_id = ? AND folder_id = ?")
                .params(userId, folderId).query(Long.class).list());
    }

    /** Every folder of the person with the sources filed in it (an empty set for an empty folder): one query. */
    public Map<Long, Set<Long>> sourcesByFolder(long userId) {
        Map<Long, Set<Long>> byFolder = new LinkedHashMap<>();
        jdbc.sql("""
                SELECT f.id, m.source_id FROM folders f
                LEFT JOIN folder_sources m ON m.user_id = f.user_id AND m.folder_id = f.id
                WHERE f.user_id = ? ORDER BY f.name_key, f.id
                """).param(userId).query((rs, n) -> {
                    Set<Long> sources = byFolder.computeIfAbsent(rs.getLong(1), k -> new LinkedHashSet<>());
                    long source = rs.getLong(2);
                    if (!rs.wasNull()) {
                        sources.add(source);
                    }
                    return null;
                }).list();
        return byFolder;
    }

    private static Object[] args(long userId, Collection<Long> ids) {
        List<Object> args = new ArrayList<>(ids.size() + 1);
        args.add(userId);
        args.addAll(ids);
        return args.toArray();
    }

    private static String clean(String name) {
        String cleaned = Names.clean("name", name, MAX_NAME_LENGTH);
        if (Names.key(cleaned).codePointCount(0, Names.key(cleaned).length()) > MAX_KEY_LENGTH) {
            throw new InvalidNameException("name", "must be at most " + MAX_NAME_LENGTH + " characters");
        }
        return cleaned;
    }
}
