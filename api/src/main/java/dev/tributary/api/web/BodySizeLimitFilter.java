package dev.tributary.api.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caps request bodies: a declared length over the limit is refused (413) before a byte is read
 * (Tomcat then discards up to {@code server.tomcat.max-swallow-size} of the unread body so the
 * client, still sending, can read the answer),
 * and a chunked body is cut off as it crosses the limit ({@link RequestTooLargeException}, also
 * a 413), so no endpoint ever buffers more than the limit.
 */
class BodySizeLimitFilter extends OncePerRequestFilter {

    private final long limit;
    private final ProblemWriter problems;

    BodySizeLimitFilter(long limit, ProblemWriter problems) {
        this.limit = limit;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > limit) {
            problems.write(request, response, HttpStatus.CONTENT_TOO_LARGE, "too-large",
                    "The request body is larger than " + limit + " bytes.");
            return;
        }
        chain.doFilter(new Limited(request, limit), response);
    }

    /** The request with its body stream counted. */
    private static final class Limited extends HttpServletRequestWrapper {

        private final long limit;
        private ServletInputStream stream;

        Limited(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CountingStream(super.getInputStream(), limit);
            }
            return stream;
        }
    }

    private static final class CountingStream extends ServletInputStream {

        private final ServletInputStream in;
        private final long limit;
        private long count;

        CountingStream(ServletInputStream in, long limit) {
            this.in = in;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        private void counted(int n) throws RequestTooLargeException {
            count += n;
            if (count > limit) {
                throw new RequestTooLargeException(limit);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
