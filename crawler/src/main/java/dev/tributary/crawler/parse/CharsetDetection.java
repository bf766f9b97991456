package dev.tributary.crawler.parse;

import java.nio.charset.Charset;
import org.jspecify.annotations.Nullable;
import org.mozilla.universalchardet.UniversalDetector;

/**
 * Guesses the charset of a body whose header and declaration name none that fits, with Mozilla's
 * universalchardet (juniversalchardet): the legacy CJK and Cyrillic encodings undeclared feeds are
 * written in (EUC-JP, Shift_JIS, EUC-KR, GB18030, Big5, KOI8-R, windows-1251...).
 */
final class CharsetDetection {

    // Enough text for the detector's statistics; beyond it, a 20 MB body would cost a second full pass.
    private static final int SAMPLE = 64 * 1024;

    private CharsetDetection() {
    }

    /** The charset the bytes look to be in, or null when the detector is not confident. */
    static @Nullable Charset detect(byte[] body) {
        UniversalDetector detector = new UniversalDetector();
        for (int at = 0; at < body.length && at < SAMPLE * 4 && !detector.isDone(); at += SAMPLE) {
            detector.handleData(body, at, Math.min(SAMPLE, body.length - at));
        }
        detector.dataEnd();
        return EncodingLabels.charset(detector.getDetectedCharset());
    }

    /** Whether a detected charset is one whose byte structure makes detection reliable even against a contrary label. */
    static boolean isMultiByte(Charset charset) {
        return charset.newEncoder().maxBytesPerChar() > 1 && EncodingLabels.isAsciiCompatible(charset);
    }
}
