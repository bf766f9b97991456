package dev.tributary.api.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.pubsub.MediaType;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TimelineParamsTest {

    @Test
    void mediaIsACommaSeparatedListOfKnownTypes() {
        assertThat(TimelineParams.media("text, image,")).isEqualTo(Set.of(MediaType.TEXT, MediaType.IMAGE));
        assertThat(TimelineParams.media("")).isNull();
        assertThat(TimelineParams.media(",")).isNull();
        assertThatThrownBy(() -> TimelineParams.media("text,TEXT")).isInstanceOf(ApiProblem.class);
        assertThatThrownBy(() -> TimelineParams.media("gif")).isInstanceOf(ApiProblem.class);
    }

    @Test
    void unreadIsTrueOrFalse() {
        assertThat(TimelineParams.unread("true")).isTrue();
        assertThat(TimelineParams.unread("false")).isFalse();
        assertThat(TimelineParams.unread(null)).isFalse();
        assertThatThrownBy(() -> TimelineParams.unread("1")).isInstanceOf(ApiProblem.class);
    }

    @Test
    void ifNoneMatchIsComparedWeakly() {
        String etag = "W/\"abc\"";
        assertThat(PageETag.matches("W/\"abc\"", etag)).isTrue();
        assertThat(PageETag.matches("\"abc\"", etag)).isTrue();
        assertThat(PageETag.matches("\"x\", W/\"abc\"", etag)).isTrue();
        assertThat(PageETag.matches("*", etag)).isTrue();
        assertThat(PageETag.matches("\"abcd\"", etag)).isFalse();
        assertThat(PageETag.matches("", etag)).isFalse();
        assertThat(PageETag.matches(null, etag)).isFalse();
    }
}
