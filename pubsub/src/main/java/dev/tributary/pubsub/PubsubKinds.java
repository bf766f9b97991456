package dev.tributary.pubsub;

import dev.tributary.storage.EntityKind;
import dev.tributary.storage.IndexColumn;
import dev.tributary.storage.IndexDefinition;
import dev.tributary.storage.IndexKey;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The entity kinds of pub/sub and their indexes (tables in {@code V2026_11_21_02__pubsub.sql}). */
@Configuration(proxyBeanMethods = false)
class PubsubKinds {

    static final EntityKind<Item> ITEM = new EntityKind<>("item", Item.class);
    static final EntityKind<Source> SOURCE = new EntityKind<>("source", Source.class);
    static final EntityKind<Group> GROUP = new EntityKind<>("group", Group.class);

    /** (source, guid) → item: what makes publishing idempotent. Tombstones keep their guid. */
    static final IndexDefinition<Item> ITEM_GUIDS = IndexDefinition.unique("item_guids", "item_guids", ITEM,
            List.of(IndexColumn.bigint("source_id"), IndexColumn.hash("guid_hash")),
            item -> List.of(IndexKey.of(item.sourceId(), item.guid())));

    /** A source's live items by id, for profile and source feeds that page far back. */
    static final IndexDefinition<Item> ITEM_SOURCES = IndexDefinition.ofEntity("item_sources", "item_sources", ITEM,
            List.of(IndexColumn.bigint("source_id"), IndexColumn.bigint("item_id")),
            (id, item) -> item.deleted() ? List.of() : List.of(IndexKey.of(item.sourceId(), id)));

    /**
     * Search terms → live items: one row per distinct term of an item (title and summary words and
     * CJK bigrams, its media type and tags as filter terms; {@link SearchTerms}) with the term's
     * weight. Keyed by (term, item, source) so a search reads a term's rows newest first and stops
     * when it has enough, and checks each further term with one primary-key probe. Tombstones have none.
     * Deferred: ~100 rows an item would double the cost of every publish, so they are written in
     * batches just after it (search lags a publish by a fraction of a second).
     */
    static final IndexDefinition<Item> ITEM_TERMS = IndexDefinition.ofEntity("item_terms", "item_terms", ITEM,
            List.of(IndexColumn.varchar("term", 40), IndexColumn.bigint("item_id"), IndexColumn.bigint("source_id"),
                    IndexColumn.bigint("weight")),
            (id, item) -> SearchTerms.ofItem(item).entrySet().stream()
                    .map(e -> IndexKey.of(e.getKey(), id, item.sourceId(), (long) e.getValue())).toList()).deferred();

    /**
     * (source, story) → items: which stories a feed's items hold, so that a new entry of the feed
     * never takes one of them (two entries of one feed are never one story; {@link Stories}), and
     * so that search shows a story once. Tombstones keep theirs, as they keep their guid.
     */
    static final IndexDefinition<Item> ITEM_STORIES = IndexDefinition.of("item_stories", "item_stories", ITEM,
            List.of(IndexColumn.bigint("source_id"), IndexColumn.bigint("story")),
            item -> item.story() == null ? List.of() : List.of(IndexKey.of(item.sourceId(), item.story())));

    static final IndexDefinition<Source> SOURCE_URLS = IndexDefinition.unique("source_urls", "source_urls", SOURCE,
            List.of(IndexColumn.hash("url_hash")),
            source -> source.kind() == SourceKind.FEED ? List.of(IndexKey.of(source.url())) : List.of());

    static final IndexDefinition<Source> SOURCE_OWNERS = IndexDefinition.unique("source_owners", "source_owners", SOURCE,
            List.of(IndexColumn.varchar("owner_kind", 8), IndexColumn.bigint("owner_id")),
            source -> source.kind() == SourceKind.FEED ? List.of()
                    : List.of(IndexKey.of(source.kind().wireName(), source.ownerId())));

    @Bean
    EntityKind<Item> pubsubItemKind() {
        return ITEM;
    }

    @Bean
    EntityKind<Source> pubsubSourceKind() {
        return SOURCE;
    }

    @Bean
    EntityKind<Group> pubsubGroupKind() {
        return GROUP;
    }

    @Bean
    IndexDefinition<Item> pubsubItemGuids() {
        return ITEM_GUIDS;
    }

    @Bean
    IndexDefinition<Item> pubsubItemSources() {
        return ITEM_SOURCES;
    }

    @Bean
    IndexDefinition<Item> pubsubItemTerms() {
        return ITEM_TERMS;
    }

    @Bean
    IndexDefinition<Item> pubsubItemStories() {
        return ITEM_STORIES;
    }

    @Bean
    IndexDefinition<Source> pubsubSourceUrls() {
        return SOURCE_URLS;
    }

    @Bean
    IndexDefinition<Source> pubsubSourceOwners() {
        return SOURCE_OWNERS;
    }
}
