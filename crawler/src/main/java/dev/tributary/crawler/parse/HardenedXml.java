package dev.tributary.crawler.parse;

import java.io.IOException;
import java.io.StringReader;
import javax.xml.XMLConstants;
import org.jdom2.Document;
import org.jdom2.JDOMException;
import org.jdom2.input.SAXBuilder;
import org.jdom2.input.sax.XMLReaders;
import org.xml.sax.EntityResolver;
import org.xml.sax.InputSource;

/**
 * Builds JDOM documents the way a feed from anywhere must be read: no DOCTYPE at all (so no
 * entity declarations, no billion laughs, no external DTD or parameter entity fetch), no external
 * entities, no XInclude, the JDK's secure-processing limits, a cap on element depth, and a cap on the
 * number of nodes in the tree ({@link NodeBudget}), so that a document's heap is bounded whatever it holds.
 *
 * <p>Rome 2.1's {@code WireFeedInput} sets the first three too ({@code allowDoctypes} is false by
 * default); they are set here explicitly because this class, not Rome, builds the document, so
 * that Rome cannot mistake a non-feed or HTML page for a parse error.
 */
final class HardenedXml {

    /** Deeper than any real feed (about 30 at most); keeps Rome's recursive walks off the stack limit. */
    static final int MAX_ELEMENT_DEPTH = 256;

    private static final String DISALLOW_DOCTYPE = "http://apache.org/xml/features/disallow-doctype-decl";
    private static final String EXTERNAL_GENERAL_ENTITIES = "http://xml.org/sax/features/external-general-entities";
    private static final String EXTERNAL_PARAMETER_ENTITIES = "http://xml.org/sax/features/external-parameter-entities";
    private static final String LOAD_EXTERNAL_DTD = "http://apache.org/xml/features/nonvalidating/load-external-dtd";
    private static final String XINCLUDE = "http://apache.org/xml/features/xinclude";
    // The JDK parser's name for its element depth limit (jdk.xml.maxElementDepth).
    private static final String MAX_DEPTH_PROPERTY = "http://www.oracle.com/xml/jaxp/properties/maxElementDepth";

    // Should any entity still be resolved, it resolves to nothing rather than to a file or a url.
    private static final EntityResolver NOTHING = (publicId, systemId) -> new InputSource(new StringReader(""));

    // Whether the parser in use knows the depth limit (the JDK's does; another on the classpath may not).
    private final boolean depthLimit;

    private final int maxNodes;

    /** @param maxNodes the most nodes a document's tree may have; beyond, {@link NodeBudget.Exceeded} is thrown */
    HardenedXml(int maxNodes) {
        if (maxNodes < 1) {
            throw new IllegalArgumentException("maxNodes must be positive, was " + maxNodes);
        }
        this.maxNodes = maxNodes;
        this.depthLimit = supportsDepthLimit();
    }

    /** @throws NodeBudget.Exceeded when the document has more than {@code maxNodes} nodes */
    Document build(String xml) throws JDOMException, IOException {
        SAXBuilder builder = builder(depthLimit);
        builder.setJDOMFactory(new NodeBudget(maxNodes));
        return builder.build(new StringReader(xml));
    }

    private static SAXBuilder builder(boolean depthLimit) {
        SAXBuilder builder = new SAXBuilder(XMLReaders.NONVALIDATING);
        builder.setFeature(DISALLOW_DOCTYPE, true);
        builder.setFeature(EXTERNAL_GENERAL_ENTITIES, false);
        builder.setFeature(EXTERNAL_PARAMETER_ENTITIES, false);
        builder.setFeature(LOAD_EXTERNAL_DTD, false);
        builder.setFeature(XINCLUDE, false);
        builder.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        if (depthLimit) {
            builder.setProperty(MAX_DEPTH_PROPERTY, String.valueOf(MAX_ELEMENT_DEPTH));
        }
        builder.setEntityResolver(NOTHING);
        builder.setExpandEntities(false);
        builder.setReuseParser(false);
        return builder;
    }

    private static boolean supportsDepthLimit() {
        try {
            builder(true).build(new StringReader("<probe/>"));
            return true;
        } catch (JDOMException | IOException unsupported) {
            return false;
        }
    }
}
