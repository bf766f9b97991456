package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.cluster.SlotHash;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PersonSlotsTest {

    @Test
    void idsThatDifferOnlyInTheirLowBitsSpreadOverEveryBucket() {
        // Generated ids: a timestamp in the high bits, a counter from zero in the low ones.
        Map<Integer, Integer> perBucket = new HashMap<>();
        LongStream.range(0, 1_600).map(ms -> (1_700_000_000_000L + ms) << 22)
                .forEach(id -> perBucket.merge(PersonSlots.bucket(id), 1, Integer::sum));
        assertThat(perBucket).hasSize(PersonSlots.BUCKETS);
        assertThat(perBucket.values()).allSatisfy(n -> assertThat(n).isBetween(50, 150));
    }

    @Test
    void onAClusterEachCallHoldsOneSlotsPeopleAndABatchIsAtMostOneCallPerBucket() {
        List<Long> batch = LongStream.rangeClosed(1, 1_000).map(i -> i * 7_919).boxed().toList();
        List<List<Long>> calls = PersonSlots.calls(batch, true, 1_000);
        assertThat(calls).hasSizeLessThanOrEqualTo(PersonSlots.BUCKETS);
        assertThat(calls.stream().mapToInt(List::size).sum()).isEqualTo(1_000);
        for (List<Long> call : calls) {
            Set<Integer> slots = new HashSet<>();
            call.forEach(user -> slots.add(SlotHash.getSlot(UnreadCounters.key(user))));
            assertThat(slots).as("slots of one call").hasSize(1);
        }
        assertThat(PersonSlots.calls(batch, true, 10)).allSatisfy(call -> assertThat(call).hasSizeLessThanOrEqualTo(10));
    }

    @Test
    void onOneRedisCallsKeepTheOrderInRunsOfAtMostPerCall() {
        List<Long> batch = LongStream.rangeClosed(1, 2_500).boxed().toList();
        List<List<Long>> calls = PersonSlots.calls(batch, false, 1_000);
        assertThat(calls).extracting(List::size).containsExactly(1_000, 1_000, 500);
        assertThat(calls.getFirst().getFirst()).isEqualTo(1L);
    }

    @Test
    void eachBucketHashesIntoItsOwnSixteenthSoThreeEvenMastersHoldSixFiveAndFive() {
        int[] perMaster = new int[3];
        Set<String> tags = new HashSet<>();
        for (int bucket = 0; bucket < PersonSlots.BUCKETS; bucket++) {
            long person = personIn(bucket);
            String tag = PersonSlots.tag(person);
            tags.add(tag);
            int slot = SlotHash.getSlot(tag.substring(1, tag.length() - 1));
            assertThat(slot / (SlotHash.SLOT_COUNT / PersonSlots.BUCKETS)).as("bucket %d's slot", bucket).isEqualTo(bucket);
            assertThat(SlotHash.getSlot(UnreadCounters.key(person))).isEqualTo(slot);
            perMaster[slot * 3 / SlotHash.SLOT_COUNT]++;
        }
        assertThat(tags).hasSize(PersonSlots.BUCKETS);
        assertThat(java.util.Arrays.stream(perMaster).sorted().boxed().toList()).containsExactly(5, 5, 6);
    }

    private static long personIn(int bucket) {
        return LongStream.iterate(1, id -> id + 1).filter(id -> PersonSlots.bucket(id) == bucket).findFirst().orElseThrow();
    }

    @Test
    void aPersonsCounterAndStampShareTheirSlot() {
        long person = 123_456_789L;
        assertThat(UnreadCounters.key(person)).isEqualTo("tributary:unread:v3:" + PersonSlots.tag(person) + ":" + person)
                .contains("{p" + PersonSlots.bucket(person) + ".");
    }
}
