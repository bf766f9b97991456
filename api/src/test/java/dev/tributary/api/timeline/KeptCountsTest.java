package dev.tributary.api.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.tributary.api.ratelimit.ReadAlong;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.KeptLifetime;
import dev.tributary.pubsub.Switches;
import dev.tributary.pubsub.Unread;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.json.JsonMapper;

/**
 * Counts that age on their own (an unread pulled item leaving the horizon, {@link
 * HomeFeed.UnreadByFolder#agesAt}) are kept only until that moment, though their version has not
 * moved: the clock, not a write, changes them. (Unit test: the version and counts are fakes.)
 */
class KeptCountsTest {

    private static final long PERSON = 7;
    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

    private Instant now = NOW;
    private final HomeFeed home = mock(HomeFeed.class);
    private final UnreadReads reads = new UnreadReads(home);
    private final MeterRegistry meters = new SimpleMeterRegistry();

    @AfterEach
    void stop() {
        reads.destroy();
    }

    private KeptCounts counts() {
        Switches switches = mock(Switches.class);
        when(switches.isOn(Feature.PAGE_CACHE)).thenReturn(true);
        Clock clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now;
            }
        };
        StaticListableBeanFactory beans = new StaticListableBeanFactory(Map.of("clock", clock, "meters", meters));
        return new KeptCounts(home, reads, JsonMapper.builder().build(), switches,
                new PageCacheSettings(true, 100, DataSize.ofMegabytes(1), DataSize.ofMegabytes(1)), beans.getBeanProvider(Clock.class),
                beans.getBeanProvider(MeterRegistry.class));
    }

    private static HomeFeed.UnreadByFolder counted(long total, Instant agesAt) {
        return new HomeFeed.UnreadByFolder(new Unread(total, Map.of(1L, total), Map.of(), 0), Map.of(), agesAt);
    }

    @Test
    void countsThatAgeAreKeptUntilThenAndReadAgainAfter() {
        KeptCounts kept = counts();
        when(home.unreadVersion(PERSON)).thenReturn("v1");
        when(home.unreadByFolder(anyCollection())).thenReturn(Map.of(PERSON, counted(2, NOW.plusSeconds(60))),
                Map.of(PERSON, counted(1, null)));

        byte[] first = kept.unread(PERSON, null);
        now = NOW.plusSeconds(60);
        assertThat(kept.unread(PERSON, null)).as("up to the moment they age").isEqualTo(first);
        verify(home, times(1)).unreadByFolder(anyCollection());

        now = NOW.plusSeconds(61);
        byte[] aged = kept.unread(PERSON, null);
        assertThat(new String(aged)).contains("\"total\":1");
        verify(home, times(2)).unreadByFolder(anyCollection());
        now = NOW.plusSeconds(61).plus(Duration.ofMinutes(7));
        assertThat(kept.unread(PERSON, null)).as("counts that never age are kept while the version holds").isEqualTo(aged);
        verify(home, times(2)).unreadByFolder(anyCollection());
        now = NOW.plusSeconds(61).plus(Duration.ofMinutes(10));
        kept.unread(PERSON, null);
        verify(home, times(3).description("past the bound left for a lost stamp move")).unreadByFolder(anyCollection());
    }

    @Test
    void countsKeptFirstLiveASpreadShareOfTheBoundAndRenewedOnesLiveThePersonsLifetime() {
        KeptCounts kept = counts();
        when(home.unreadVersion(PERSON)).thenReturn("v1");
        when(home.unreadByFolder(anyCollection())).thenReturn(Map.of(PERSON, counted(2, null)));
        Duration first = KeptLifetime.first(PERSON, Duration.ofMinutes(10));
        Duration renewed = KeptLifetime.of(PERSON, Duration.ofMinutes(10));
        assertThat(first).as("this person's first lifetime is shorter than a renewed one").isLessThan(renewed);

        kept.unread(PERSON, null);
        now = NOW.plus(first).minusMillis(1);
        kept.unread(PERSON, null);
        verify(home, times(1)).unreadByFolder(anyCollection());
        now = NOW.plus(first);
        kept.unread(PERSON, null);
        verify(home, times(2).description("read again when the first lifetime ends")).unreadByFolder(anyCollection());

        Instant renewedAt = now;
        now = renewedAt.plus(renewed).minusMillis(1);
        kept.unread(PERSON, null);
        verify(home, times(2).description("the stale counts were there: the person's own lifetime")).unreadByFolder(anyCollection());
        now = renewedAt.plus(renewed);
        kept.unread(PERSON, null);
        verify(home, times(3)).unreadByFolder(anyCollection());
    }

    @Test
    void countsAStreamRenderKeptAgeTheSameWay() {
        KeptCounts kept = counts();
        when(home.unreadVersion(PERSON)).thenReturn("v1");
        when(home.unreadByFolder(anyCollection())).thenReturn(Map.of(PERSON, counted(1, null)));
        kept.keep(PERSON, "v1", "{\"total\":2}".getBytes(), counted(2, NOW.plusSeconds(5)));
        assertThat(new String(kept.unread(PERSON, null))).isEqualTo("{\"total\":2}");

        now = NOW.plusSeconds(6);
        assertThat(new String(kept.unread(PERSON, null))).contains("\"total\":1");
        kept.keep(PERSON, null, "{\"total\":9}".getBytes(), counted(9, null));
        assertThat(new String(kept.unread(PERSON, null))).as("no version, nothing kept").contains("\"total\":1");
    }
    @Test
    void aVersionReadAlongByTheRateLimitIsUsedAndOneThatNoLongerAppliesIsReadAgain() {
        KeptCounts kept = counts();
        List<String> keys = List.of("epoch", "person");
        when(home.unreadVersion(PERSON, keys, Arrays.asList("e1", "p1"))).thenReturn("v1");
        when(home.unreadVersion(PERSON, keys, Arrays.asList("e1", "p2"))).thenReturn(null);
        when(home.unreadVersion(PERSON)).thenReturn("v2");
        when(home.unreadByFolder(anyCollection())).thenReturn(Map.of(PERSON, counted(2, null)), Map.of(PERSON, counted(3, null)));

        byte[] first = kept.unread(PERSON, new ReadAlong.Read(keys, Arrays.asList("e1", "p1")));
        assertThat(kept.unread(PERSON, new ReadAlong.Read(keys, Arrays.asList("e1", "p1")))).as("kept under v1").isEqualTo(first);
        verify(home, never()).unreadVersion(PERSON);
        verify(home, times(1)).unreadByFolder(anyCollection());

        byte[] again = kept.unread(PERSON, new ReadAlong.Read(keys, Arrays.asList("e1", "p2")));
        assertThat(new String(again)).as("read under the version read here").contains("\"total\":3");
        verify(home, times(1)).unreadVersion(PERSON);
        assertThat(kept.unread(PERSON, null)).as("kept under v2").isEqualTo(again);
        verify(home, times(2)).unreadByFolder(anyCollection());
        assertThat(served("read", "along")).isEqualTo(1);
        assertThat(served("kept", "along")).isEqualTo(1);
        assertThat(served("read", "apart")).isEqualTo(1);
        assertThat(served("kept", "apart")).isEqualTo(1);
    }

    private double served(String outcome, String version) {
        return meters.get("tributary.api.unread.cache.reads").tag("outcome", outcome).tag("version", version).counter().count();
    }
}
