package dev.tributary.api.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/** The connection read buffer's bounds are checked at start-up, not found out by Tomcat under load. */
class ApiSettingsTest {

    @Test
    void aConnectionReadBufferOutsideOneKilobyteToOneMegabyteIsRefused() {
        for (DataSize refused : new DataSize[] {DataSize.ofBytes(512), DataSize.ofBytes(0), DataSize.ofBytes(-1),
                DataSize.ofMegabytes(2)}) {
            assertThatThrownBy(() -> settings(refused)).as(refused.toString()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("tributary.api.connection-read-buffer");
        }
        assertThat(settings(DataSize.ofKilobytes(1)).connectionReadBuffer()).isEqualTo(DataSize.ofKilobytes(1));
        assertThat(settings(DataSize.ofMegabytes(1)).connectionReadBuffer()).isEqualTo(DataSize.ofMegabytes(1));
    }

    private static ApiSettings settings(DataSize readBuffer) {
        return new ApiSettings(DataSize.ofMegabytes(2), 5, 20, Duration.ofMinutes(15), Duration.ofSeconds(60), readBuffer);
    }
}
