# Production image: the app only. It always talks to an external MariaDB/MySQL and Redis
# (see docker-compose.yml), so the ~150 MB embedded MariaDB binaries are left out (-Dslim).
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -Dslim -DskipTests package

FROM eclipse-temurin:25-jre
RUN useradd --system --uid 10001 tributary
WORKDIR /app
COPY --from=build /src/api/target/tributary.jar /app/tributary.jar
# ./data holds secret.key, the key that encrypts the OAuth signing keys kept in the database: owned
# by the app's user, owner-only, and mounted as a volume (docker-compose.yml) so it outlives the container.
RUN mkdir -p /app/data && chown tributary /app/data && chmod 700 /app/data
USER tributary
EXPOSE 8080
# G1 by measurement (docs/benchmarks.md, "GC study"); named, because the JVM picks the serial collector
# in a container of under 2 CPUs or 1,792 MB. A 16-core node: -XX:+UseZGC (see README, "Memory and GC").
ENTRYPOINT ["java", "-XX:+UseG1GC", "-XX:MaxRAMPercentage=75", "-jar", "/app/tributary.jar"]
