package dev.tributary.api.bench;

import dev.tributary.api.testing.Prosody;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * XMPP receipts: {@code subscribers} Smack sessions on the benchmark's own Prosody (one account,
 * a resource each), each subscribed by its full address to the author's public node; a receipt
 * is the node's event notification whose Atom entry carries the round's marker. The sessions run
 * in a JVM of their own ({@link XmppReceivers}), as readers' clients run beside a server: in the
 * server's JVM a thousand sessions' parsing was charged to the deliveries they time.
 */
final class XmppReceipts extends PushReceipts {

    static final String USER = "bench";
    static final String PASSWORD = "bench-secret";

    private final Process child;
    private Thread reader;

    private XmppReceipts(int subscribers, Process child) {
        super("xmpp", subscribers);
        this.child = child;
    }

    /** Signs {@code subscribers} sessions in (in the child) and subscribes each to {@code node}, once the app made it. */
    static XmppReceipts subscribe(Prosody prosody, String node, int subscribers) throws IOException {
        prosody.register(USER, PASSWORD);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                XmppReceivers.class.getName(), Integer.toString(prosody.port()), node, Integer.toString(subscribers))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        XmppReceipts receipts = new XmppReceipts(subscribers, child);
        BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        for (String line; !"ready".equals(line = lines.readLine()); ) {
            if (line == null || line.startsWith("error")) {
                child.destroy();
                throw new IllegalStateException("the XMPP receivers' JVM did not sign in its sessions: " + line);
            }
        }
        receipts.reader = Thread.ofPlatform().name("xmpp-receipts").daemon(true).start(() -> receipts.read(lines));
        return receipts;
    }

    /** Lines {@code r<TAB>index<TAB>nanoTime<TAB>payload}, one per item heard. */
    private void read(BufferedReader lines) {
        try {
            for (String line; (line = lines.readLine()) != null; ) {
                String[] field = line.split("\t", 4);
                if (field.length == 4 && field[0].equals("r")) {
                    received(Integer.parseInt(field[1]), field[3], Long.parseLong(field[2]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            child.getOutputStream().close();
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                child.destroy();
            }
        } catch (IOException e) {
            child.destroy();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            child.destroy();
        }
    }
}
