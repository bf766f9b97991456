package dev.tributary.api.stream;

import java.io.IOException;

/** Where a live stream's events go: its upgraded connection ({@link LiveConnection}), or Spring's SseEmitter where there is none. */
interface StreamOutput {

    /** Writes whole events and sends them; fails once the client is gone or stopped reading. */
    void write(byte[] events) throws IOException;

    /** Ends the stream; from any thread, without waiting for the client. */
    void end();
}
