package dev.tributary.api.xmpp;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * Whether two XML fragments say the same thing, whoever wrote them: the XMPP server gives back a
 * payload with its own quotes, namespace declarations and attribute order.
 */
final class SameXml {

    private SameXml() {
    }

    static boolean same(String a, String b) {
        try {
            return canonical(a).equals(canonical(b));
        } catch (ParserConfigurationException | SAXException | IOException e) {
            return false; // unreadable: not known to be the same, so sent again
        }
    }

    private static String canonical(String xml) throws ParserConfigurationException, SAXException, IOException {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setExpandEntityReferences(false);
        factory.setCoalescing(true);
        DocumentBuilder builder = factory.newDocumentBuilder();
        builder.setErrorHandler(null);
        StringBuilder out = new StringBuilder();
        write(builder.parse(new InputSource(new StringReader(xml))).getDocumentElement(), out);
        return out.toString();
    }

    private static void write(Element element, StringBuilder out) {
        out.append('<').append('{').append(element.getNamespaceURI()).append('}').append(element.getLocalName());
        NamedNodeMap attributes = element.getAttributes();
        List<String> written = new ArrayList<>();
        for (int i = 0; i < attributes.getLength(); i++) {
            Node attribute = attributes.item(i);
            if (!XMLConstants.XMLNS_ATTRIBUTE_NS_URI.equals(attribute.getNamespaceURI())) {
                written.add("{" + attribute.getNamespaceURI() + "}" + attribute.getLocalName() + "=" + attribute.getNodeValue());
            }
        }
        written.stream().sorted().forEach(attribute -> out.append(' ').append(attribute));
        out.append('>');
        for (Node child = element.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element nested) {
                write(nested, out);
            } else if (child.getNodeType() == Node.TEXT_NODE || child.getNodeType() == Node.CDATA_SECTION_NODE) {
                String text = child.getNodeValue().strip();
                if (!text.isEmpty()) {
                    out.append(text.replace("&", "&amp;").replace("<", "&lt;"));
                }
            }
        }
        out.append("</>");
    }
}
