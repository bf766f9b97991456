package dev.tributary.api.web;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatus;

/**
 * Tomcat's own error page as a problem: for requests Tomcat refuses before any servlet sees
 * them (a {@code %00} or an encoded slash in the path, an unparseable request line), which
 * would otherwise get Tomcat's HTML page. It takes the place of every other error report valve
 * of the host, Spring Boot's included. No {@code instance}: the refused path is not trusted.
 */
class ProblemReportValve extends ErrorReportValve {

    /** Puts this valve in place of the host's error report valves. */
    static void install(StandardHost host) {
        for (Valve valve : host.getPipeline().getValves()) {
            if (valve instanceof ErrorReportValve) {
                host.getPipeline().removeValve(valve);
            }
        }
        host.setErrorReportValveClass(ProblemReportValve.class.getName());
        host.getPipeline().addValve(new ProblemReportValve());
    }

    /** Whether Tomcat refused the request for its line or headers overflowing the header buffer. */
    private static boolean tooLarge(Throwable throwable) {
        for (Throwable cause = throwable; cause != null; cause = cause.getCause()) {
            if (cause instanceof IllegalArgumentException && cause.getMessage() != null
                    && cause.getMessage().contains("too large")) {
                return true;
            }
        }
        return false;
    }

    private static boolean ioAllowed(Response response) {
        AtomicBoolean allowed = new AtomicBoolean();
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, allowed);
        return allowed.get();
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported() || !ioAllowed(response)) {
            return;
        }
        if (status == 400 && tooLarge(throwable)) {
            // Tomcat says 400 for a request line or headers past server.max-http-request-header-size;
            // HTTP has a status for each. The request line is parsed before any header: with no URI or
            // no header read yet, it was the line (the URL) that overflowed.
            org.apache.coyote.Request parsed = request.getCoyoteRequest();
            status = parsed.requestURI().isNull() || parsed.getMimeHeaders().size() == 0 ? 414 : 431;
            response.setStatus(status);
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        String detail = switch (status) {
            case 414 -> "The URL is longer than the server reads.";
            case 431 -> "The request's headers are larger than the server reads.";
            case 505 -> "The request's HTTP version is not one the server speaks (HTTP/1.1 or HTTP/2); send it as HTTP/1.1.";
            default -> status >= 500 ? "Something went wrong on our side; it has been logged."
                    : "The request is malformed: the server refused it before it reached the API.";
        };
        try {
            response.setContentType("application/problem+json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"type\":\"" + ApiProblem.typeOf(status) + "\",\"title\":\"" + title + "\",\"status\":" + status
                        + ",\"detail\":\"" + detail + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException gone) {
            // The client has gone or the response cannot take a body: nothing more to tell anyone.
        }
    }
}
