package dev.tributary.crawler.parse;

import com.rometools.rome.feed.WireFeed;
import com.rometools.rome.feed.atom.Feed;
import com.rometools.rome.feed.rss.Channel;
import com.rometools.rome.io.FeedException;
import com.rometools.rome.io.WireFeedInput;
import dev.tributary.crawler.parse.FeedFormatException.Reason;
import java.io.IOException;
import java.net.URI;
import org.jdom2.Document;
import org.jdom2.JDOMException;
import org.jdom2.input.JDOMParseException;
import org.jspecify.annotations.Nullable;

/**
 * RSS and Atom: decode, repair, parse with {@link HardenedXml}, then let Rome's format parsers
 * (and rome-modules' Media RSS, Dublin Core, Atom links) read the document. One parse on the happy path.
 */
final class XmlFeedReader {

    private final HardenedXml xml;
    // Thread-safe: its only state is set at construction; Rome keeps its format parsers per class loader.
    private final WireFeedInput rome = new WireFeedInput();
    private final int maxNodes;

    XmlFeedReader(int maxNodes) {
        this.xml = new HardenedXml(maxNodes);
        this.maxNodes = maxNodes;
    }

    ParsedFeed read(byte[] body, @Nullable String contentType, URI feedUrl) throws FeedFormatException {
        String text = XmlRepair.repair(Utf8OrWindows1252.mapC1(XmlDecoding.decode(body, contentType)));
        XmlProlog prolog = XmlProlog.scan(text);
        if (prolog.isHtml(text)) {
            throw new FeedFormatException(Reason.NOT_A_FEED, "An HTML page, not a feed.");
        }
        String withoutDoctype = prolog.withoutHarmlessDoctype(text);
        Document document = document(withoutDoctype != null ? withoutDoctype : text, prolog);
        XmlBases.apply(document, feedUrl);
        return map(wireFeed(document), feedUrl);
    }

    private Document document(String text, XmlProlog prolog) throws FeedFormatException {
        try {
            return xml.build(text);
        } catch (JDOMParseException e) {
            throw budgetOr(e, refusal(prolog, "Not well-formed XML (line " + e.getLineNumber() + ", column "
                    + e.getColumnNumber() + "): " + causeMessage(e), e));
        } catch (JDOMException | IOException e) {
            throw budgetOr(e, refusal(prolog, "Not readable as XML: " + causeMessage(e), e));
        } catch (RuntimeException e) {
            // JDOM refuses some names Xerces lets through (":Seq") with unchecked exceptions.
            throw budgetOr(e, refusal(prolog, "Not well-formed XML: " + causeMessage(e), e));
        }
    }

    /** The node budget's refusal if that is what stopped the parser (the parser may wrap it), else {@code otherwise}. */
    private FeedFormatException budgetOr(Exception e, FeedFormatException otherwise) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof NodeBudget.Exceeded) {
                return new FeedFormatException(Reason.TOO_MANY_NODES, "The document has more than " + maxNodes
                        + " XML nodes (elements, attributes, text); refused so that one feed cannot exhaust memory.", e);
            }
        }
        return otherwise;
    }

    /** A DOCTYPE the parser refused is named as such (the parser's own message is localised, so not matched on). */
    private static FeedFormatException refusal(XmlProlog prolog, String malformed, Exception cause) {
        if (prolog.hasDoctype()) {
            return new FeedFormatException(Reason.FORBIDDEN_DTD,
                    "The document declares a DTD (<!DOCTYPE>), which is refused for safety.", cause);
        }
        if (prolog.rootName() == null) {
            return new FeedFormatException(Reason.NOT_A_FEED, "Not an XML document.", cause);
        }
        return new FeedFormatException(Reason.MALFORMED, malformed, cause);
    }

    private WireFeed wireFeed(Document document) throws FeedFormatException {
        try {
            DialectPrepass.apply(document);
            DatePrepass.apply(document);
            return rome.build(document);
        } catch (IllegalArgumentException e) {
            // Rome's way of saying no format parser recognised the root element.
            if ("Invalid document".equals(e.getMessage())) {
                throw new FeedFormatException(Reason.NOT_A_FEED,
                        "An XML document, but not RSS or Atom (root element <" + document.getRootElement().getQualifiedName() + ">).", e);
            }
            throw malformed(e);
        } catch (FeedException e) {
            throw malformed(e);
        } catch (RuntimeException e) {
            // A module or format parser that trips over odd content fails the document, never the caller;
            // its message (a NullPointerException's, say) would tell a subscriber nothing.
            throw new FeedFormatException(Reason.MALFORMED, "The feed's content could not be read.", e);
        }
    }

    private static FeedFormatException malformed(Exception e) {
        return new FeedFormatException(Reason.MALFORMED, "The feed's content could not be read: " + causeMessage(e), e);
    }

    private static ParsedFeed map(WireFeed feed, URI feedUrl) throws FeedFormatException {
        return switch (feed) {
            case Channel channel -> RssMapping.map(channel, feedUrl);
            case Feed atom -> AtomMapping.map(atom, feedUrl);
            default -> throw new FeedFormatException(Reason.NOT_A_FEED, "Unsupported feed type " + feed.getFeedType() + ".");
        };
    }

    private static String causeMessage(Throwable e) {
        Throwable innermost = e;
        while (innermost.getCause() != null && innermost.getCause() != innermost) {
            innermost = innermost.getCause();
        }
        String message = innermost.getMessage();
        return message == null ? innermost.getClass().getSimpleName() : message;
    }
}
