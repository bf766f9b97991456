package dev.tributary.api.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.mock.http.MockHttpOutputMessage;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class PageJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static byte[] item(long id) {
        return ("{\"id\":\"" + id + "\",\"also_in\":[],\"starred\":false}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aPageIsTheArrayOfItsItemsWithTheStarredOnesWrittenTrue() {
        PageJson page = PageJson.ofItems(new byte[][] {item(3), item(2), item(1)}, new boolean[] {false, true, false});

        byte[] written = page.bytes();

        JsonNode array = JSON.readTree(written);
        assertThat(array.isArray()).isTrue();
        assertThat(array).hasSize(3);
        assertThat(array.get(0).get("id").asString()).isEqualTo("3");
        assertThat(array.get(0).get("starred").asBoolean()).isFalse();
        assertThat(array.get(1).get("starred").asBoolean()).isTrue();
        assertThat(array.get(2).get("starred").asBoolean()).isFalse();
        assertThat(page.length()).isEqualTo(written.length);
    }

    @Test
    void anEmptyPageIsAnEmptyArray() {
        PageJson page = PageJson.ofItems(new byte[0][], new boolean[0]);

        assertThat(new String(page.bytes(), StandardCharsets.UTF_8)).isEqualTo("[]");
        assertThat(page.length()).isEqualTo(2);
    }

    @Test
    void aPageWrittenWholeIsWrittenAsItIs() {
        byte[] whole = "[{\"id\":\"1\"}]".getBytes(StandardCharsets.UTF_8);

        assertThat(PageJson.of(whole).bytes()).isEqualTo(whole);
        assertThat(PageJson.of(whole).length()).isEqualTo(whole.length);
    }

    @Test
    void itemsAndFlagsMustPair() {
        assertThatThrownBy(() -> PageJson.ofItems(new byte[][] {item(1)}, new boolean[2]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theConverterWritesThePageAsJsonWithItsLength() throws IOException {
        PageJson page = PageJson.ofItems(new byte[][] {item(2), item(1)}, new boolean[] {true, true});
        PageJsonConverter converter = new PageJsonConverter();
        MockHttpOutputMessage response = new MockHttpOutputMessage();

        converter.write(page, MediaType.APPLICATION_JSON, response);

        assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
        assertThat(response.getHeaders().getContentLength()).isEqualTo(page.length());
        assertThat(response.getBodyAsBytes()).isEqualTo(page.bytes());
        assertThat(JSON.readTree(response.getBodyAsBytes()).get(1).get("starred").asBoolean()).isTrue();
    }

    @Test
    void theConverterWritesPagesOnlyAndReadsNothing() {
        PageJsonConverter converter = new PageJsonConverter();

        assertThat(converter.canWrite(PageJson.class, MediaType.APPLICATION_JSON)).isTrue();
        assertThat(converter.canWrite(byte[].class, MediaType.APPLICATION_JSON)).isFalse();
        assertThat(converter.canWrite(PageJson.class, MediaType.APPLICATION_XML)).isFalse();
        assertThat(converter.canRead(PageJson.class, MediaType.APPLICATION_JSON)).isFalse();
    }
}
