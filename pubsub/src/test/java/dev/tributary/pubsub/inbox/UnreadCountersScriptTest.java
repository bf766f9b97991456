package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The counter script's arithmetic on a built hash, straight: a person with a few fields and one
 * with more than a thousand count up and back to zero, and fields at zero leave the hash.
 */
@WithEmbeddedPubsub
class UnreadCountersScriptTest {

    @Autowired UnreadCounters counters;
    @Autowired Fixtures fixtures;
    @Autowired StringRedisTemplate redis;

    @Test
    void fewFieldsCountUpAndBackToZero() {
        countsUpAndBack(3);
    }

    @Test
    void overAThousandFieldsCountUpAndBackToZero() {
        countsUpAndBack(1_200);
    }

    private void countsUpAndBack(int sources) {
        long person = fixtures.person();
        assertThat(counters.read(person).total()).as("an empty inbox builds an empty hash").isZero();
        List<Long> sourceIds = LongStream.rangeClosed(1, sources).boxed().toList();

        counters.apply(deltas(person, sourceIds, 2), null, List.of());
        counters.apply(deltas(person, sourceIds.subList(0, 1), -1), null, List.of());
        Map<Long, Long> expected = sourceIds.stream().collect(Collectors.toMap(id -> id, id -> id == 1 ? 1L : 2L));
        assertThat(counters.read(person)).isEqualTo(new Unread(2L * sources - 1, expected, Map.of(MediaType.TEXT, 2L * sources - 1)));

        counters.apply(deltas(person, sourceIds.subList(1, sources), -2), null, List.of());
        counters.apply(deltas(person, sourceIds.subList(0, 1), -1), null, List.of());
        assertThat(counters.read(person)).isEqualTo(new Unread(0, Map.of(), Map.of()));
        assertThat(redis.opsForHash().keys(UnreadCounters.key(person))).as("only the markers are left")
                .containsExactlyInAnyOrder("_b", "_g", "_h");
    }

    @Test
    void aListeningMarkOutlivesInvalidationAndRebuildAndTheTotalIsTheSumOfTheSources() {
        long person = fixtures.person();
        counters.listening(List.of(person), Duration.ofMinutes(1));
        assertThat(redis.getExpire(UnreadCounters.key(person))).as("a new hash expires").isPositive();
        String mark = (String) redis.opsForHash().get(UnreadCounters.key(person), "_l");
        assertThat(mark).isNotNull();

        counters.invalidate(List.of(person));
        assertThat(redis.opsForHash().get(UnreadCounters.key(person), "_l")).as("kept by invalidation").isEqualTo(mark);
        assertThat(counters.read(person).total()).isZero();
        assertThat(redis.opsForHash().entries(UnreadCounters.key(person))).as("kept by a rebuild, in the built mark")
                .containsEntry("_b", mark).doesNotContainKey("_l");
        counters.invalidate(List.of(person));
        assertThat(redis.opsForHash().entries(UnreadCounters.key(person))).as("kept by invalidating a built hash")
                .containsEntry("_l", mark).doesNotContainKey("_b");
        assertThat(counters.read(person).total()).isZero();
        counters.listening(List.of(person), Duration.ofMinutes(2));
        String renewed = (String) redis.opsForHash().get(UnreadCounters.key(person), "_b");
        assertThat(Long.parseLong(renewed)).as("a renewal of a built hash moves its built mark on").isGreaterThan(Long.parseLong(mark));

        counters.apply(List.of(new UnreadDelta(person, 0L, 1, MediaType.TEXT, 2), new UnreadDelta(person, 0L, 2, MediaType.IMAGE, 3)),
                null, List.of());
        assertThat(counters.read(person)).isEqualTo(new Unread(5, Map.of(1L, 2L, 2L, 3L),
                Map.of(MediaType.TEXT, 2L, MediaType.IMAGE, 3L)));
        assertThat(redis.opsForHash().hasKey(UnreadCounters.key(person), "t")).as("no total field").isFalse();
    }

    @Test
    void invalidatingAHashOfTheEarlierLayoutKeepsTheLaterOfItsTwoMarks() {
        long person = fixtures.person();
        String key = UnreadCounters.key(person);
        // Written before the mark moved into _b: built, with the stream's mark in _l.
        redis.opsForHash().putAll(key, Map.of("_b", "1", "_g", "g", "_l", "1900000000000"));
        counters.invalidate(List.of(person));
        assertThat(redis.opsForHash().entries(key)).containsEntry("_l", "1900000000000").doesNotContainKey("_b");

        redis.opsForHash().putAll(key, Map.of("_b", "1900000000500", "_l", "1900000000000"));
        counters.invalidate(List.of(person));
        assertThat(redis.opsForHash().get(key, "_l")).as("the later mark").isEqualTo("1900000000500");

        redis.delete(key);
        redis.opsForHash().putAll(key, Map.of("_b", "1", "_g", "g"));
        counters.invalidate(List.of(person));
        assertThat(redis.opsForHash().keys(key)).as("no stream, no mark").containsExactly("_g");
    }

    @Test
    void aSourceOfTwoMediaTypesIsCountedPerSourceAndPerTypeFromOneFieldEach() {
        long person = fixtures.person();
        assertThat(counters.read(person).total()).isZero();

        counters.apply(List.of(new UnreadDelta(person, 0L, 7, MediaType.TEXT, 2), new UnreadDelta(person, 0L, 7, MediaType.IMAGE, 1),
                new UnreadDelta(person, 0L, 8, MediaType.IMAGE, 4)), null, List.of());
        counters.apply(List.of(new UnreadDelta(person, 0L, 7, MediaType.TEXT, -1)), null, List.of());

        assertThat(counters.read(person)).isEqualTo(new Unread(6, Map.of(7L, 2L, 8L, 4L),
                Map.of(MediaType.TEXT, 1L, MediaType.IMAGE, 5L)));
        assertThat(redis.opsForHash().keys(UnreadCounters.key(person))).as("one field per source and media type")
                .containsExactlyInAnyOrder("_b", "_g", "_h", "s7:" + MediaType.TEXT.bit(), "s7:" + MediaType.IMAGE.bit(),
                        "s8:" + MediaType.IMAGE.bit());
    }

    private static List<UnreadDelta> deltas(long person, List<Long> sourceIds, int change) {
        List<UnreadDelta> deltas = new ArrayList<>();
        sourceIds.forEach(source -> deltas.add(new UnreadDelta(person, 0L, source, MediaType.TEXT, change)));
        return deltas;
    }
}
