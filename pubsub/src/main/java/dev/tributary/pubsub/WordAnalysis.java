package dev.tributary.pubsub;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.tartarus.snowball.ext.EnglishStemmer;

/**
 * Lucene's analysis chain for one word that {@link SearchTerms} has cut (already NFKC and case
 * folded): ASCII folding (café = cafe, straße = strasse), lower case again (folding can yield
 * capitals), then, for a word of ASCII letters only, the Snowball English stemmer (Porter2: run,
 * runs and running are one term). Words of other scripts keep their folded form: an English
 * stemmer would only mangle them. Items and queries pass through the same chain, so they meet;
 * the index stays in MySQL, Lucene only makes the terms.
 */
final class WordAnalysis {

    /** Folding and lower case: what a prefix is compared in (the index's terms are stems of such words). */
    private static final Analyzer FOLD = chain(false);
    /** Folding, lower case and the English stemmer: what a word is indexed and searched as. */
    private static final Analyzer STEM = chain(true);

    private WordAnalysis() {
    }

    /** The word's index term: folded, and stemmed when it is English-looking (ASCII letters only). */
    static String term(String word) {
        String folded = fold(word);
        return isAsciiLetters(folded) ? run(STEM, folded) : folded;
    }

    /** The word folded (accents and ligatures to ASCII where Latin, lower case) but not stemmed. */
    static String fold(String word) {
        return isAscii(word) ? word.toLowerCase(java.util.Locale.ROOT) : run(FOLD, word);
    }

    private static Analyzer chain(boolean stem) {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                Tokenizer source = new KeywordTokenizer();
                TokenStream stream = new LowerCaseFilter(new ASCIIFoldingFilter(source));
                return new TokenStreamComponents(source, stem ? new SnowballFilter(stream, new EnglishStemmer()) : stream);
            }
        };
    }

    private static String run(Analyzer analyzer, String word) {
        try (TokenStream stream = analyzer.tokenStream("word", word)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            String result = stream.incrementToken() ? term.toString() : word;
            stream.end();
            return result;
        } catch (IOException e) {
            // A StringReader never fails to read.
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isAscii(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (word.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAsciiLetters(String word) {
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c < 'a' || c > 'z') {
                return false;
            }
        }
        return !word.isEmpty();
    }
}
