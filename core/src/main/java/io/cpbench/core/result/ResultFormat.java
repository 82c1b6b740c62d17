package io.cpbench.core.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Reads every version of {@link RunResult}'s file format. Version 1 ({@value RunResult#FORMAT_1}) kept every field
 * at the top level; version 2 ({@value RunResult#FORMAT}) groups them in sections. {@link #upgrade} moves a version 1
 * file's fields into version 2's sections, so one type reads both and results written before still render.
 */
public final class ResultFormat {

    /** Version 1's top-level fields that version 2 keeps in its {@code run} section, under the same names. */
    private static final List<String> RUN = List.of("scenario", "network", "description", "round", "harness", "baseline");
    /** ... in its {@code cluster} section (with {@code topology}, and {@code clusterName}, which becomes {@code name}). */
    private static final List<String> CLUSTER = List.of("clientTarget", "members", "networkPath");
    /** ... in its {@code measured} section. */
    private static final List<String> MEASURED = List.of("startedAt", "durationSeconds", "warmupOps", "ops", "errors",
            "opsPerSecond", "counters");

    private ResultFormat() {
    }

    /**
     * The format {@code tree} is written in, checked: {@link RunResult#FORMAT} or {@link RunResult#FORMAT_1}.
     *
     * @throws ResultFormatException naming what was found and what is read
     */
    public static String check(JsonNode tree, Object source) {
        JsonNode format = tree == null ? null : tree.get("format");
        String text = format == null ? null : format.asText();
        if (!RunResult.FORMAT.equals(text) && !RunResult.FORMAT_1.equals(text)) {
            throw new ResultFormatException(source + ": not a cp-bench result (format is "
                    + (text == null ? "missing" : "'" + text + "'") + ", expected '" + RunResult.FORMAT + "' or '"
                    + RunResult.FORMAT_1 + "')");
        }
        return text;
    }

    /**
     * {@code tree} in the current format: a version 2 tree as it is, a version 1 tree with its fields moved into
     * version 2's sections (a new tree; {@code tree} is not changed).
     */
    public static ObjectNode upgrade(ObjectNode tree) {
        if (!RunResult.FORMAT_1.equals(tree.path("format").asText())) {
            return tree;
        }
        ObjectNode old = tree.deepCopy();
        ObjectNode result = old.objectNode();
        result.put("format", RunResult.FORMAT);
        ObjectNode run = result.putObject("run");
        RUN.forEach(field -> move(old, field, run, field));
        move(old, "status", result, "status");
        move(old, "reason", result, "reason");
        move(old, "firstError", result, "firstError");
        ObjectNode cluster = result.putObject("cluster");
        move(old, "topology", cluster, "topology");
        move(old, "clusterName", cluster, "name");
        CLUSTER.forEach(field -> move(old, field, cluster, field));
        move(old, "plan", result, "plan");
        move(old, "environment", result, "environment");
        ObjectNode measured = result.putObject("measured");
        MEASURED.forEach(field -> move(old, field, measured, field));
        move(old, "latencyMicros", result, "latencyMicros");
        ObjectNode leader = result.putObject("leader");
        move(old, "leaderBefore", leader, "before");
        move(old, "leaderAfter", leader, "after");
        old.remove("format");
        result.setAll(old); // hlog, histogram, load, and anything a reader may know that version 2 did not move
        return result;
    }

    private static void move(ObjectNode from, String field, ObjectNode to, String as) {
        JsonNode value = from.remove(field);
        if (value != null) {
            to.set(as, value);
        }
    }
}
