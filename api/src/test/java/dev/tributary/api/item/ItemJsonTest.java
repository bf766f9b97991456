package dev.tributary.api.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/** A reader's flags put into an item's shared JSON give the bytes Jackson writes for that reader's view. */
class ItemJsonTest {

    private final JsonMapper json = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    private final ItemView shared = new ItemView("42", new SourceRef("7", "feed", "A \"quoted\" feed", null), "author",
            "Title with false} inside", "<p>starred\":false}</p>", null, null, "https://example.test/a", "text", List.of(), List.of("x"),
            Instant.parse("2026-11-20T10:00:00Z"), Instant.parse("2026-11-20T10:01:00Z"), false, 3, 1, null, List.of(), false);
    private final List<SourceRef> copies = List.of(new SourceRef("8", "feed", "Another", null), new SourceRef("9", "feed", "Third", null));

    @Test
    void everyCombinationOfReadStarredAndAlsoInIsWhatJacksonWritesForThatReader() {
        ItemJson.Shared rendered = ItemJson.of(shared, json);
        for (boolean read : new boolean[] {false, true}) {
            for (boolean starred : new boolean[] {false, true}) {
                for (List<SourceRef> alsoIn : List.of(List.<SourceRef>of(), copies)) {
                    ItemView theirs = new ItemView(shared.id(), shared.source(), shared.author(), shared.title(), shared.summary(),
                            null, null, shared.url(), shared.mediaType(), shared.media(), shared.tags(), shared.publishedAt(),
                            shared.receivedAt(), read, shared.likesCount(), shared.commentsCount(), null, alsoIn, starred);
                    byte[] spliced = ItemJson.forReader(read ? rendered.read() : rendered.unread(),
                            alsoIn.isEmpty() ? null : json.writeValueAsBytes(alsoIn), starred);
                    assertThat(new String(spliced, StandardCharsets.UTF_8)).as("read %s, starred %s, also_in %s", read, starred, alsoIn.size())
                            .isEqualTo(json.writeValueAsString(theirs));
                }
            }
        }
    }

    @Test
    void aViewRenderedWithItsOwnFlagsIsRenderedAsForNobody() {
        ItemView readAndStarred = shared.withRead(true).withStarred(true);
        assertThat(ItemJson.of(readAndStarred, json).unread()).isEqualTo(ItemJson.of(shared, json).unread());
    }

    @Test
    void aViewCarryingAReadersAlsoInIsRefusedAsShared() {
        ItemView withCopies = new ItemView(shared.id(), shared.source(), shared.author(), shared.title(), shared.summary(),
                null, null, shared.url(), shared.mediaType(), shared.media(), shared.tags(), shared.publishedAt(), shared.receivedAt(),
                false, 0, 0, null, copies, false);
        assertThatThrownBy(() -> ItemJson.of(withCopies, json)).isInstanceOf(IllegalStateException.class);
    }
}
