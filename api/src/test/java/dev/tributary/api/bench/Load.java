package dev.tributary.api.bench;

import java.time.Duration;

/** Runs HTTP load on a server: closed loop or paced ({@link LoadGenerator} says how it measures). */
interface Load {

    LoadGenerator.Result run(String path, String accept, int connections, Duration warmup, Duration measured, long maxRequests);

    LoadGenerator.Result runPaced(String path, String accept, int connections, double perSecond, Duration warmup,
            Duration measured, long maxRequests);
}
