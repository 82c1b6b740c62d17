package io.cpbench.bench.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cpbench.core.status.Status;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * One run's section of a report, as the JSON the page's script draws: its name and path, its kind, its tables (HTML
 * from Markdown), charts, notes, checks ({@code verdicts}, the run's own first) and environments.
 */
public final class Section {

    static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode run = JSON.createObjectNode();
    private final ArrayNode tables;
    private final ArrayNode charts;
    private final ArrayNode notes;
    private final ArrayNode verdicts;
    private final ArrayNode environments;

    public Section(String name, String path) {
        run.put("name", name);
        run.put("path", path);
        tables = run.putArray("tables");
        charts = run.putArray("charts");
        notes = run.putArray("notes");
        verdicts = run.putArray("verdicts");
        environments = run.putArray("environments");
    }

    /** The section's JSON. */
    public ObjectNode node() {
        return run;
    }

    /** What the page draws it as: matrix, load, jmh, fault, sweep, ab, compare. */
    public void kind(String kind) {
        run.put("kind", kind);
    }

    /** A field of the section's header ("topology", "releases"). */
    public void put(String field, String value) {
        run.put(field, value);
    }

    /** The run's one verdict: its status in the section's header, and first among its checks, with why. */
    public void runVerdict(Status status, String why) {
        run.put("status", status.name());
        run.put("incomplete", status != Status.OK);
        verdict("the run", status.name(), status == Status.OK, why == null ? "" : why);
    }

    /** Whether the run's verdict is not OK. */
    public boolean incomplete() {
        return run.path("incomplete").asBoolean();
    }

    /** One check: its name, its verdict's word, whether it passed, and its evidence. */
    public void verdict(String name, String verdict, boolean ok, String detail) {
        ObjectNode v = verdicts.addObject();
        v.put("name", name);
        v.put("verdict", verdict);
        v.put("ok", ok);
        v.put("detail", detail);
    }

    /** A table, from the Markdown the CLI prints. */
    public void table(String title, String markdown) {
        ObjectNode t = tables.addObject();
        t.put("title", title);
        t.put("html", MarkdownHtml.html(markdown));
    }

    public void note(String note) {
        notes.add(note);
    }

    /** An environment (a result's {@code Environment}), unless the section has it already. */
    public void environment(Object environment) {
        JsonNode tree = JSON.valueToTree(environment);
        for (JsonNode e : environments) {
            if (e.equals(tree)) {
                return;
            }
        }
        environments.add(tree);
    }

    /** A new chart in the section. */
    public ObjectNode chart(String type, String title) {
        ObjectNode c = charts.addObject();
        fill(c, type, title);
        return c;
    }

    /** A chart that is not yet in the section: {@link #addIfDrawn} adds it once it has a point. */
    public static ObjectNode looseChart(String type, String title) {
        return fill(JSON.createObjectNode(), type, title);
    }

    /** Adds {@code chart} when one of its series has a point. */
    public void addIfDrawn(ObjectNode chart) {
        for (JsonNode series : chart.withArray("series")) {
            for (JsonNode y : series.path("y")) {
                if (!y.isNull()) {
                    charts.add(chart);
                    return;
                }
            }
        }
    }

    private static ObjectNode fill(ObjectNode c, String type, String title) {
        c.put("type", type);
        c.put("title", title);
        c.putArray("series");
        return c;
    }

    /** A line on {@code chart}, against the axis named {@code axis} (ops, lat, ratio); returns the series. */
    public static ObjectNode line(ObjectNode chart, Series.Line line, String axis) {
        ObjectNode s = chart.withArray("series").addObject();
        s.put("label", line.label());
        s.put("axis", axis);
        ArrayNode x = s.putArray("x");
        for (double v : line.x()) {
            x.add(round(v));
        }
        ArrayNode y = s.putArray("y");
        for (Double v : line.y()) {
            if (v == null || v.isNaN() || v.isInfinite()) {
                y.addNull();
            } else {
                y.add(round(v));
            }
        }
        return s;
    }

    /** A shaded band on a time chart: a load stage, a fault window, a process pair. */
    public static void band(ArrayNode bands, double from, double to, String kind, String label) {
        ObjectNode band = bands.addObject();
        band.put("from", from);
        band.put("to", to);
        band.put("kind", kind);
        band.put("label", label);
    }

    /** Four significant digits: what a chart can show, at a fraction of the file size. */
    private static double round(double v) {
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return v;
        }
        return new BigDecimal(v).round(new MathContext(4)).doubleValue();
    }
}
