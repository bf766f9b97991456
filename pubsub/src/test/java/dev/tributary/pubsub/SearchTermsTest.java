package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SearchTermsTest {

    @Test
    void latinWordsAreCaseFoldedAndSplitOnPunctuation() {
        assertThat(SearchTerms.of("MemcacheDB, Tokyo Tyrant, Redis performance test", 100))
                .containsExactly("memcachedb", "tokyo", "tyrant", "redi", "perform", "test");
        assertThat(SearchTerms.of("Straße STRASSE", 100)).containsExactly("strass");
    }

    @Test
    void cjkRunsBecomeOverlappingBigramsAndALoneCharacterItself() {
        assertThat(SearchTerms.of("Java垃圾回收调优", 100)).containsExactly("java", "垃圾", "圾回", "回收", "收调", "调优");
        assertThat(SearchTerms.of("a 猫 b", 100)).containsExactly("a", "猫", "b");
        assertThat(SearchTerms.of("ひらがなカタカナ한국어", 100)).contains("ひら", "なカ", "カナ", "ナ한", "한국", "국어");
        assertThat(SearchTerms.of("コーヒー", 100)).containsExactly("コー", "ーヒ", "ヒー");
    }

    @Test
    void thaiLaoKhmerAndMyanmarRunsBecomePairsOfClusters() {
        // กิ|น|ข้|า|ว: a vowel sign or tone mark stays with its letter, so no pair starts with a mark.
        assertThat(SearchTerms.of("กินข้าว", 100)).containsExactly("กิน", "นข้", "ข้า", "าว");
        assertThat(SearchTerms.of("ฉันชอบกินข้าวมาก", 100)).as("a word inside a phrase written without spaces")
                .containsAll(SearchTerms.of("กินข้าว", 100)).doesNotContainAnyElementsOf(SearchTerms.of("ผัด", 100));
        assertThat(SearchTerms.of("ສະບາຍດີຫຼາຍ", 100)).containsAll(SearchTerms.of("ສະບາຍດີ", 100));
        // Khmer ខ + coeng + ម (written under it) + vowel sign, then រ: two clusters, one pair.
        assertThat(SearchTerms.of("ខ្មែរ", 100)).containsExactly("ខ្មែរ");
        assertThat(SearchTerms.of("ភាសាខ្មែរ", 100)).contains("ខ្មែរ")
                .noneMatch(term -> term.startsWith("\u17D2") || term.startsWith("ម"));
        // Myanmar မြ|န်|မာ (a medial and the asat stay with their letters).
        assertThat(SearchTerms.of("မြန်မာ", 100)).containsExactly("မြန်", "န်မာ");
        assertThat(SearchTerms.of("Thai ภาษา 2024 ไทย", 100)).containsExactly("thai", "ภา", "าษ", "ษา", "2024", "ไท", "ทย");
        assertThat(SearchTerms.of("\u0E34\u0E49 ก", 100)).as("marks with nothing to mark; a lone cluster as itself")
                .containsExactly("ก");
    }

    @Test
    void compatibilityFormsAndCombiningMarksNormaliseAlike() {
        assertThat(SearchTerms.of("ＲＥＤＩＳ ｶﾀｶﾅ", 100)).containsExactly("redi", "カタ", "タカ", "カナ");
        assertThat(SearchTerms.of("cafe\u0301", 100)).isEqualTo(SearchTerms.of("café", 100)).containsExactly("cafe");
        assertThat(SearchTerms.of("\u0301\u0301", 100)).as("marks with nothing to mark").isEmpty();
    }

    @Test
    void englishWordsAreStemmedAndLatinAccentsFoldedToAscii() {
        assertThat(SearchTerms.of("run runs running", 100)).containsExactly("run");
        assertThat(SearchTerms.of("Feeds reading Readers", 100)).containsExactly("feed", "read", "reader");
        assertThat(SearchTerms.of("café CAFÉS cafe", 100)).containsExactly("cafe");
        assertThat(SearchTerms.of("Crème brûlée naïve Œuvre Ærø", 100)).containsExactly("creme", "brule", "naiv", "oeuvr", "aero");
        assertThat(SearchTerms.of("aggregator aggregation aggregated", 100)).containsExactly("aggreg");
        assertThat(SearchTerms.of("Москва новости 2024s", 100)).as("other scripts and mixed words are folded, not stemmed")
                .containsExactly("москва", "новости", "2024s");
        assertThat(SearchTerms.of("ǅemal " + "é".repeat(40), 100)).as("folding can lengthen a word: cut after it")
                .allSatisfy(term -> assertThat(term.codePointCount(0, term.length())).isLessThanOrEqualTo(SearchTerms.MAX_TERM_CHARS));
    }

    @Test
    void aSequenceKeepsEveryTermInOrderForPhrases() {
        assertThat(SearchTerms.sequence("The feed readers, the feed", 100)).containsExactly("the", "feed", "reader", "the", "feed");
        assertThat(SearchTerms.sequence("垃圾回收", 100)).containsExactly("垃圾", "圾回", "回收");
        assertThat(SearchTerms.sequence("a b c d", 2)).containsExactly("a", "b");
    }

    @Test
    void emojiAndSymbolsSeparateWords() {
        assertThat(SearchTerms.of("redis🚀rocks 👍🏽 #tag @me", 100)).containsExactly("redi", "rock", "tag", "me");
        assertThat(SearchTerms.of("🚀🚀🚀 ... !!!", 100)).isEmpty();
        assertThat(SearchTerms.of("\uD800 lone \uDFFF surrogates", 100)).containsExactly("lone", "surrog");
    }

    @Test
    void hostileSizesAreBounded() {
        String longWord = "x".repeat(1_000_000);
        assertThat(SearchTerms.of(longWord, 100)).containsExactly("x".repeat(SearchTerms.MAX_TERM_CHARS));
        String manyWords = IntStream.range(0, 200_000).mapToObj(i -> "w" + i).collect(Collectors.joining(" "));
        assertThat(SearchTerms.of(manyWords, 50)).hasSize(50);
        String han = "漢字".repeat(500_000);
        assertThat(SearchTerms.of(han, 100)).containsExactly("漢字", "字漢");
        String piledMarks = "ก" + "\u0E34".repeat(1_000_000) + "น";
        assertThat(SearchTerms.of(piledMarks, 100)).singleElement()
                .satisfies(term -> assertThat(term.codePointCount(0, term.length())).isLessThanOrEqualTo(SearchTerms.MAX_TERM_CHARS));
    }

    @Test
    void anItemIsIndexedByTitleAndPlainSummaryWithTitleWeighingMore() {
        Item item = new Item(1, "g", "Redis notes", "<p>Redis &amp; <b>memcache</b><script>alert('x')</script> 垃圾</p>",
                null, null, MediaType.LINK, List.of(), List.of("Databases"), Instant.EPOCH, Instant.EPOCH, null, null);
        Map<String, Integer> terms = SearchTerms.ofItem(item);

        assertThat(terms).containsEntry("redi", SearchTerms.TITLE_WEIGHT + 1).containsEntry("note", SearchTerms.TITLE_WEIGHT)
                .containsEntry("memcach", 1).containsEntry("垃圾", 1)
                .containsEntry("#m:link", 0).containsEntry("#t:databases", 0)
                .doesNotContainKeys("alert", "p", "b", "amp", "script");
        Item many = new Item(1, "g", null, IntStream.range(0, 1000).mapToObj(i -> "w" + i).collect(Collectors.joining(" ")),
                null, null, MediaType.TEXT, List.of(), List.of(), Instant.EPOCH, Instant.EPOCH, null, null);
        assertThat(SearchTerms.ofItem(many)).hasSize(SearchTerms.MAX_ITEM_TERMS + 1);
        assertThat(SearchTerms.ofItem(new Item(1, "g", "x", "y", null, null, MediaType.TEXT, List.of(), List.of(),
                Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, null))).as("a tombstone").isEmpty();
    }

    @Test
    void hostileMarkupIsStrippedInOnePass() {
        assertThat(SearchTerms.plainText("a<SCRIPT>x</script >b<style>y</STYLE>c<script>never closed")).isEqualTo("a b c ");
        String openers = "<script".repeat(50_000) + "<b x='" + "<".repeat(50_000);
        assertThat(SearchTerms.of(SearchTerms.plainText(openers), 10)).isEmpty();
        assertThat(SearchTerms.of(SearchTerms.plainText("<p>" + "&amp;".repeat(100_000) + "redis</p>"), 10))
                .as("read up to a bound").doesNotContain("redi");
    }

    @Test
    void entitiesDecodeOnlyToRealCharacters() {
        assertThat(SearchTerms.plainText("&#x52;edis&#0;&#xD800;&#1114112;&#21315;")).isEqualTo("Redis   千");
    }

    @Test
    void aQueryIsRefusedWhenTooLongEmptyOrTooManyWords() {
        assertThat(SearchText.parse("  Redis  ").terms()).containsExactly("redi");
        assertThat(SearchText.parse("x".repeat(SearchText.MAX_CHARS)).terms()).hasSize(1);
        assertThatThrownBy(() -> SearchText.parse("x".repeat(1_000_000))).isInstanceOf(InvalidSearchException.class)
                .extracting(e -> ((InvalidSearchException) e).reason()).isEqualTo(InvalidSearchException.Reason.QUERY_TOO_LONG);
        assertThatThrownBy(() -> SearchText.parse(" ?! 🚀 ")).isInstanceOf(InvalidSearchException.class)
                .extracting(e -> ((InvalidSearchException) e).reason()).isEqualTo(InvalidSearchException.Reason.EMPTY_QUERY);
        assertThatThrownBy(() -> SearchText.parse("a b c d e f g h i j k l m n o p q")).isInstanceOf(InvalidSearchException.class)
                .extracting(e -> ((InvalidSearchException) e).reason()).isEqualTo(InvalidSearchException.Reason.TOO_MANY_TERMS);
    }

    @Test
    void quotesMakePhrasesAndATrailingStarAPrefix() {
        SearchText text = SearchText.parse("\"Feed Readers\" aggregat* Redis");
        assertThat(text.terms()).containsExactly("feed", "reader", "redi");
        assertThat(text.phrases()).containsExactly(List.of("feed", "reader"));
        assertThat(text.prefixes()).containsExactly("aggregat");
        assertThat(SearchText.parse("“smart quotes” CAFÉ*").phrases()).containsExactly(List.of("smart", "quot"));
        assertThat(SearchText.parse("“smart quotes” CAFÉ*").prefixes()).as("folded, not stemmed").containsExactly("cafe");
        assertThat(SearchText.parse("\"one\" \"\"").phrases()).as("a quoted word is a word").isEmpty();
        assertThat(SearchText.parse("\"one\" \"\"").terms()).containsExactly("one");
        assertThat(SearchText.parse("java.aggregat*").terms()).containsExactly("java");
        assertThat(SearchText.parse("java.aggregat*").prefixes()).containsExactly("aggregat");
        assertThat(SearchText.parse("tab\tand\nnewline").terms()).containsExactly("tab", "and", "newlin");
    }

    @Test
    void hostileQueriesAreRefusedWithAReasonThatSaysWhatIsAllowed() {
        Map<String, InvalidSearchException.Reason> refused = new java.util.LinkedHashMap<>();
        refused.put("*", InvalidSearchException.Reason.MISPLACED_WILDCARD);
        refused.put("** * ***", InvalidSearchException.Reason.MISPLACED_WILDCARD);
        refused.put("*redis", InvalidSearchException.Reason.MISPLACED_WILDCARD);
        refused.put("re*dis", InvalidSearchException.Reason.MISPLACED_WILDCARD);
        refused.put("redis**", InvalidSearchException.Reason.MISPLACED_WILDCARD);
        refused.put("\"feed read*\"", InvalidSearchException.Reason.MISPLACED_WILDCARD);
        refused.put("垃圾*", InvalidSearchException.Reason.MISPLACED_WILDCARD);
        refused.put("ab*", InvalidSearchException.Reason.PREFIX_TOO_SHORT);
        refused.put("abc* def* ghi* jkl* mno*", InvalidSearchException.Reason.TOO_MANY_PREFIXES);
        refused.put("\"feed reader", InvalidSearchException.Reason.UNBALANCED_QUOTE);
        refused.put("\"a\" \"b\" \"", InvalidSearchException.Reason.UNBALANCED_QUOTE);
        refused.put("redis\u0000", InvalidSearchException.Reason.INVALID_CHARACTERS);
        refused.put("\u001b[31mred", InvalidSearchException.Reason.INVALID_CHARACTERS);
        refused.put("x\u0085y", InvalidSearchException.Reason.INVALID_CHARACTERS);
        refused.put("\"" + "w ".repeat(17) + "\"", InvalidSearchException.Reason.TOO_MANY_TERMS);
        refused.put("\"" + "word ".repeat(99) + "\"", InvalidSearchException.Reason.TOO_MANY_TERMS);
        refused.put(IntStream.range(0, 10_000).mapToObj(i -> "w" + i).collect(Collectors.joining(" ")),
                InvalidSearchException.Reason.QUERY_TOO_LONG);
        refused.put("\"" + "phrase ".repeat(10_000) + "\"", InvalidSearchException.Reason.QUERY_TOO_LONG);
        refused.put("\"\" \"\"", InvalidSearchException.Reason.EMPTY_QUERY);
        refused.forEach((query, reason) -> assertThatThrownBy(() -> SearchText.parse(query)).as(query)
                .isInstanceOfSatisfying(InvalidSearchException.class, e -> {
                    assertThat(e.reason()).isEqualTo(reason);
                    assertThat(e.problem()).isNotBlank();
                }));
        assertThatThrownBy(() -> SearchText.parse("ab*")).hasMessageContaining("at least 3").hasMessageContaining("aggregat*");
        assertThatThrownBy(() -> SearchText.parse("\"open")).hasMessageContaining("two double quotes");
    }

    @Test
    void cursorsReadBackWhatTheyWriteAndNothingElse() {
        SearchCursor cursor = new SearchCursor(12, 123456789012345678L);
        assertThat(SearchCursor.parse(cursor.toString())).contains(cursor);
        for (String bad : List.of("", ".", "1.", ".1", "a.1", "1.a", "-1.5", "1.-5", "1.0", "1.99999999999999999999",
                "1234567890.1", "1.2.3", "１.２")) {
            assertThat(SearchCursor.parse(bad)).as(bad).isEmpty();
        }
    }
}
