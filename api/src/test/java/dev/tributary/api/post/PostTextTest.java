package dev.tributary.api.post;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PostTextTest {

    @Test
    void markupIsEscapedNotInterpreted() {
        assertThat(PostText.toHtml("<script>alert('x')</script> & <a href=\"javascript:x\" onclick=y>"))
                .isEqualTo("<p>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &lt;a href=&quot;javascript:x&quot; onclick=y&gt;</p>");
    }

    @Test
    void blankLinesMakeParagraphsAndSingleBreaksStay() {
        assertThat(PostText.toHtml("  first line\r\nsecond line\n\n\n  next paragraph \n \n"))
                .isEqualTo("<p>first line<br>second line</p><p>next paragraph</p>");
    }

    @Test
    void charactersXmlCannotCarryAreDropped() {
        assertThat(PostText.toHtml("a\u0000b\u0007c\uD800d\uFFFEe 😀")).isEqualTo("<p>abcde 😀</p>");
    }
}
