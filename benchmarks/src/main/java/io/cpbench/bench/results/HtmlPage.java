package io.cpbench.bench.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One self-contained HTML file: the page's own script and CSS, uPlot's (from its WebJar on the classpath, so
 * nothing is fetched when the page opens), and the report's data as JSON. The same page serves the live view,
 * which then fetches fresh data once a second.
 */
public final class HtmlPage {

    /** uPlot's version, as the WebJar on the classpath ships it (see the parent POM). */
    static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
    private static final ObjectMapper JSON = new ObjectMapper();

    private HtmlPage() {
    }

    /** The page for {@code data} (a report's data); {@code live}: it polls {@code data.json}. */
    public static String html(ObjectNode data, boolean live) {
        return page("io/cpbench/bench/report/report.js", data, live);
    }

    /**
     * Another self-contained page on the report's frame ({@code report.html}: its CSS, uPlot, the shared
     * {@code common.js}), drawn by {@code script} (a resource) over {@code data}.
     */
    public static String page(String script, ObjectNode data, boolean live) {
        return resource("io/cpbench/bench/report/report.html")
                .replace("/*TITLE*/", escape(data.path("title").asText("cp-bench report")))
                .replace("/*UPLOT_CSS*/", resource(UPLOT + "uPlot.min.css"))
                .replace("/*REPORT_CSS*/", resource("io/cpbench/bench/report/report.css"))
                .replace("/*LIVE*/", String.valueOf(live))
                .replace("/*REPORT_JS*/", resource("io/cpbench/bench/report/common.js") + "\n" + resource(script))
                .replace("/*UPLOT_JS*/", resource(UPLOT + "uPlot.iife.min.js"))
                .replace("/*DATA*/", json(data)); // last: nothing is looked for inside the data
    }

    /** Writes the page; returns its size in bytes. */
    public static long write(ObjectNode data, Path file) {
        return write(html(data, false), file);
    }

    /** Writes {@code html} to {@code file}; returns its size in bytes. */
    public static long write(String html, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
            Files.write(file, bytes);
            return bytes.length;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** JSON that is safe inside a script element: no {@code <} (so no {@code </script>}) outside an escape. */
    static String json(ObjectNode data) {
        try {
            return JSON.writeValueAsString(data).replace("<", "\\u003c");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String resource(String name) {
        try (InputStream in = HtmlPage.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing from the jar: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
