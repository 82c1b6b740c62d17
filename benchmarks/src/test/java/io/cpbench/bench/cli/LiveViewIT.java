package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.bench.report.Browser;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code run --live} on the shared 3-member cluster: the live view answers on 127.0.0.1 while the run goes, its
 * numbers move
 * with the run, Prometheus can scrape it, the page draws in Chromium without a console message, and when the run
 * ends the port is closed.
 */
@SharedCluster.Uses
class LiveViewIT {

    @TempDir
    Path work;

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static JsonNode data(String url) throws Exception {
        return new ObjectMapper().readTree(get(url + "data.json").body());
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @io.cpbench.bench.report.NeedsChromium // the page is drawn while the run goes, so the whole test needs it
    void servesTheRunWhileItGoesAndStopsWithIt() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("run", "--scenario", "client-leader", "--duration", "20s",
                "--warmup", "300ms", "--settle", "2s", "--cluster-warmup", "1s", "--live", "--out", "runs"));
        try {
            assertThat(cli.awaitStdout("live view: http://127.0.0.1:", 30)).as(cli.stderrSoFar()).isTrue();
            Matcher m = Pattern.compile("live view: (http://127\\.0\\.0\\.1:(\\d+)/)").matcher(cli.stdoutSoFar());
            assertThat(m.find()).isTrue();
            String url = m.group(1);

            // the page is there before the cluster is (it says what it is doing)
            assertThat(get(url).statusCode()).isEqualTo(200);
            assertThat(cli.awaitStderr("measure", 150)).as(cli.stderrSoFar()).isTrue();
            // the page follows the run: it names what runs and its op/s once measured, then more seconds and points
            JsonNode first = Awaitility.await("data.json shows the measured op/s").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250)).until(() -> data(url),
                            d -> d.path("live").path("what").asText().contains("client-leader")
                                    && d.path("live").path("opsPerSecond").asDouble() > 10);
            double firstElapsed = first.path("live").path("elapsedSeconds").asDouble();
            JsonNode later = Awaitility.await("data.json moves on with the run").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250)).until(() -> data(url),
                            d -> d.path("live").path("elapsedSeconds").asDouble() > firstElapsed + 1
                                    && d.path("runs").path(0).path("charts").path(0).path("series").path(0).path("y").size() > 3);
            JsonNode liveSection = later.path("runs").get(0);
            assertThat(liveSection.path("kind").asText()).isEqualTo("live");

            // the live view listens on loopback alone, as the page's address says
            java.util.List<ListeningSockets.Listener> listening = ListeningSockets.of(ListeningSockets.withDescendants(cli.process.toHandle()));
            assertThat(listening).as("the live view's socket").extracting(ListeningSockets.Listener::address)
                    .contains("127.0.0.1:" + m.group(2)).allSatisfy(a -> assertThat(a).startsWith("127."));

            String metrics = get(url + "metrics").body();
            assertThat(metrics).contains("# TYPE cpbench_ops_per_second gauge")
                    .containsPattern("cpbench_ops_per_second\\{what=\"round 1 client-leader\"\\} [0-9.]+");
            assertThat(get(url + "nope").statusCode()).isEqualTo(404);

            Browser.Page page = Browser.open(url, work.resolve("live.png"), 1280, 1400);
            // the page fetches again each second; in the DOM it drew from the data it was served with
            assertThat(page.console()).isEmpty();
            assertThat(page.errors()).isEmpty();
            assertThat(page.charts()).isGreaterThanOrEqualTo(1);
            assertThat(page.inked()).allSatisfy(i -> assertThat(i).isGreaterThan(300));
            assertThat(page.dom()).contains("op/s").contains("round 1 client-leader");

            CliProcess.Finished finished = cli.finish(120);
            assertThat(finished.exitCode()).as(finished.stderr()).isZero();
            assertThatThrownBy(() -> get(url)).as("the port is closed when the run ends").isInstanceOf(ConnectException.class);
        } finally {
            if (cli.process.isAlive()) {
                cli.process.destroyForcibly();
            }
        }
    }

    /**
     * {@code load --live} gets the load's samples: the page's op/s rises above zero and its clock moves (it stayed at
     * zero when the listener was built before the view had started).
     */
    @Test
    void aLoadFeedsTheLiveView() throws Exception {
        CliProcess cli = CliProcess.start(work, SharedCluster.with("load", "--scenario", "client-smart", "--mix", "cas",
                "--clients", "1", "--threads", "2", "--duration", "15s", "--warmup", "1s", "--settle", "2s",
                "--cluster-warmup", "0s", "--live", "--out", "runs"));
        try {
            assertThat(cli.awaitStdout("live view: http://127.0.0.1:", 30)).as(cli.stderrSoFar()).isTrue();
            Matcher m = Pattern.compile("live view: (http://127\\.0\\.0\\.1:\\d+/)").matcher(cli.stdoutSoFar());
            assertThat(m.find()).isTrue();
            String url = m.group(1);
            JsonNode first = Awaitility.await("data.json shows the load's op/s").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250)).until(() -> data(url),
                            d -> d.path("live").path("opsPerSecond").asDouble() > 10);
            double firstElapsed = first.path("live").path("elapsedSeconds").asDouble();
            Awaitility.await("data.json moves on with the load").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250)).until(() -> data(url),
                            d -> d.path("live").path("elapsedSeconds").asDouble() > firstElapsed + 1);
            CliProcess.Finished finished = cli.finish(120);
            assertThat(finished.exitCode()).as(finished.stderr()).isZero();
        } finally {
            if (cli.process.isAlive()) {
                cli.process.destroyForcibly();
            }
        }
    }
}
