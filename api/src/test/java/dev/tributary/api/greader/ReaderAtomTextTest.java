package dev.tributary.api.greader;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Without a server: what the Atom output leaves out of a feed's text, and which paths the aliases fold. */
class ReaderAtomTextTest {

    @Test
    void controlCharactersXmlCannotCarryAreLeftOutAndEverythingElseKept() {
        assertThat(ReaderAtomController.xmlSafe("a\u0000b\u0008c\u001Fd\uFFFEe")).isEqualTo("abcde");
        String kept = "tab\there\nline\r\u00e9 \u2603 \uD83D\uDE00 <b>&amp;</b>";
        assertThat(ReaderAtomController.xmlSafe(kept)).isSameAs(kept);
    }

    @Test
    void aliasesFoldToTheCanonicalPathsAndNothingElse() {
        assertThat(ReaderPathAliases.canonical("/api/greader.php/accounts/ClientLogin")).isEqualTo("/accounts/ClientLogin");
        assertThat(ReaderPathAliases.canonical("//accounts/ClientLogin")).isEqualTo("/accounts/ClientLogin");
        assertThat(ReaderPathAliases.canonical("/api/greader.php//reader/api/0/token")).isEqualTo("/reader/api/0/token");
        assertThat(ReaderPathAliases.canonical("///reader/atom/feed%2Fx")).isEqualTo("/reader/atom/feed%2Fx");
        assertThat(ReaderPathAliases.canonical("/api/fever.php")).isEqualTo("/fever/");
        assertThat(ReaderPathAliases.canonical("/api/fever.php/")).isEqualTo("/fever/");
        assertThat(ReaderPathAliases.canonical("/reader/api/0/token")).isNull();
        assertThat(ReaderPathAliases.canonical("/accounts/ClientLogin")).isNull();
        assertThat(ReaderPathAliases.canonical("/api/greader.php/api/v1/me")).isNull();
        assertThat(ReaderPathAliases.canonical("/api/v1/reader/x")).isNull();
        assertThat(ReaderPathAliases.canonical("//accounts/ClientLoginX")).isNull();
        assertThat(ReaderPathAliases.canonical("/api/fever.php/x")).isNull();
    }
}
