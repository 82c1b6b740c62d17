package io.cpbench.core.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Histories on disk, in two formats; {@link #read} tells them apart by their first line.
 *
 * <h2>JSON lines ({@code history.jsonl})</h2>
 * One event per line, in time order:
 * <pre>
 * {"process":3,"type":"invoke","f":"cas","key":"reg-0","value":[1,2],"time":1834211}
 * {"process":3,"type":"fail","f":"cas","key":"reg-0","value":[1,2],"time":2911034}
 * {"process":5,"type":"info","f":"write","key":"reg-1","value":4,"time":3020112,"error":"IndeterminateOperationStateException"}
 * </pre>
 * {@code time} is in nanoseconds since the history began. {@code value} is null, a number, or [from, to] for a cas;
 * an {@code ok} read's value is what it read. {@code error} says why a fail or info ended so; a cas that fails
 * without one found the register not holding {@code from}.
 *
 * <h2>Jepsen log</h2>
 * As Jepsen's {@code jepsen.util} logs it (tabs or spaces between the fields), one register per file:
 * <pre>
 * INFO  jepsen.util - 3	:invoke	:cas	[1 2]
 * INFO  jepsen.util - 3	:fail	:cas	[1 2]
 * INFO  jepsen.util - 5	:info	:write	:timed-out
 * </pre>
 * A completion whose value is a keyword ({@code :timed-out}) carries its invocation's value, and the keyword as
 * its error. Lines of other processes ({@code :nemesis}) are skipped. Times are line numbers.
 */
public final class HistoryFiles {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern JEPSEN = Pattern.compile(
            "^(?:.*?jepsen\\.util - )?\\s*(\\S+)\\s+:(\\w+)\\s+:([\\w-]+)\\s*(.*?)\\s*$");

    private HistoryFiles() {
    }

    /**
     * Reads a JSON-lines history or a Jepsen log.
     *
     * @throws HistoryFormatException naming the file and line, for anything it cannot read
     */
    public static History read(Path file) {
        // JSON lines are parsed as they are read, with their repeated strings (op, key, error) shared: a 138 MB
        // history of 1.3 M events is held as events only, not also as its lines. Jepsen logs are read whole.
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = null;
            int lineNo = 0;
            for (String line; (line = in.readLine()) != null; ) {
                lineNo++;
                if (!line.isBlank()) {
                    first = line;
                    break;
                }
            }
            if (first == null) {
                throw new HistoryFormatException(file + ": empty; a history has at least one event");
            }
            boolean json = first.strip().startsWith("{");
            List<Event> events;
            if (json) {
                events = readJson(file, first, lineNo, in);
            } else {
                List<String> lines = new ArrayList<>();
                for (int i = 1; i < lineNo; i++) {
                    lines.add(""); // keep line numbers in messages
                }
                lines.add(first);
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
                events = readJepsen(file, lines);
            }
            checkProcesses(file, events);
            return new History(events, !json);
        } catch (java.nio.charset.MalformedInputException e) {
            throw new HistoryFormatException(file + ": not a text file (not UTF-8)");
        } catch (IOException e) {
            throw new HistoryFormatException(file + ": cannot read: " + e.getMessage());
        }
    }

    private static List<Event> readJson(Path file, String first, int firstLineNo, BufferedReader in) throws IOException {
        List<Event> events = new ArrayList<>();
        Map<String, String> shared = new HashMap<>();
        int i = firstLineNo;
        long previous = Long.MIN_VALUE;
        for (String raw = first; raw != null; raw = in.readLine(), i++) {
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            Event event;
            try {
                JsonNode n = JSON.readTree(line);
                if (!(n instanceof ObjectNode)) {
                    throw new IllegalArgumentException("not a JSON object");
                }
                event = new Event(number(n, "process"), Event.Type.of(text(n, "type", true)),
                        share(shared, text(n, "f", true)), share(shared, text(n, "key", false)), value(n.get("value")),
                        number(n, "time"), share(shared, text(n, "error", false)));
            } catch (JsonProcessingException e) {
                throw new HistoryFormatException(file + ":" + i + ": not JSON: " + e.getOriginalMessage());
            } catch (IllegalArgumentException e) {
                throw new HistoryFormatException(file + ":" + i + ": " + e.getMessage());
            }
            if (event.time() < previous) {
                throw new HistoryFormatException(file + ": events are not in time order (event " + (events.size() + 1)
                        + " has time " + event.time() + ", before " + previous + ")");
            }
            previous = event.time();
            events.add(event);
        }
        return events;
    }

    /** One copy of each distinct string (a history repeats a handful of ops, keys and errors a million times). */
    private static String share(Map<String, String> shared, String s) {
        return s == null ? null : shared.computeIfAbsent(s, k -> k);
    }

    private static long number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.canConvertToLong() || !v.isIntegralNumber()) {
            throw new IllegalArgumentException("'" + field + "' must be a whole number");
        }
        return v.asLong();
    }

    private static String text(JsonNode n, String field, boolean required) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new IllegalArgumentException("'" + field + "' is missing");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' must be a string");
        }
        return v.asText();
    }

    private static Object value(JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.asLong();
        }
        if (v.isArray() && v.size() == 2 && v.get(0).isIntegralNumber() && v.get(1).isIntegralNumber()) {
            return List.of(v.get(0).asLong(), v.get(1).asLong());
        }
        throw new IllegalArgumentException("'value' must be null, a whole number or [from, to], not " + v);
    }

    private static List<Event> readJepsen(Path file, List<String> lines) {
        List<Event> events = new ArrayList<>(lines.size());
        Map<Long, Event> open = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            Matcher m = JEPSEN.matcher(line);
            if (!m.matches()) {
                throw new HistoryFormatException(file + ":" + (i + 1) + ": not a Jepsen history line"
                        + " (expected '<process> :<type> :<f> <value>'): " + abbreviate(line));
            }
            long process;
            try {
                process = Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                continue; // :nemesis and other non-client processes
            }
            try {
                Event.Type type = Event.Type.of(m.group(2));
                String f = m.group(3);
                String raw = m.group(4);
                Object value;
                String error = null;
                if (raw.startsWith(":")) {
                    Event invoke = open.get(process);
                    value = type == Event.Type.INVOKE || invoke == null ? null : invoke.value();
                    error = raw.substring(1);
                } else {
                    value = jepsenValue(raw);
                }
                Event e = new Event(process, type, f, null, value, i, error);
                if (type == Event.Type.INVOKE) {
                    open.put(process, e);
                } else {
                    open.remove(process);
                }
                events.add(e);
            } catch (IllegalArgumentException e) {
                throw new HistoryFormatException(file + ":" + (i + 1) + ": " + e.getMessage());
            }
        }
        return events;
    }

    private static Object jepsenValue(String raw) {
        if (raw.isEmpty() || raw.equals("nil")) {
            return null;
        }
        try {
            if (raw.startsWith("[") && raw.endsWith("]")) {
                String[] parts = raw.substring(1, raw.length() - 1).trim().split("\\s+");
                if (parts.length == 2) {
                    return List.of(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
                }
            } else {
                return Long.parseLong(raw);
            }
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw new IllegalArgumentException("value '" + raw + "' is not nil, a whole number or [from to]");
    }

    /** Every completion follows an invocation of the same op by the same process, which has one op at a time. */
    private static void checkProcesses(Path file, List<Event> events) {
        Map<Long, Event> open = new HashMap<>();
        for (Event e : events) {
            Event invoke = open.get(e.process());
            if (e.type() == Event.Type.INVOKE) {
                if (invoke != null) {
                    throw new HistoryFormatException(file + ": process " + e.process() + " invokes " + e.f()
                            + " while its " + invoke.f() + " is still open; a process runs one op at a time");
                }
                open.put(e.process(), e);
            } else {
                if (invoke == null || !invoke.f().equals(e.f())) {
                    throw new HistoryFormatException(file + ": process " + e.process() + " completes " + e.f()
                            + (invoke == null ? " that it never invoked" : " but invoked " + invoke.f()));
                }
                open.remove(e.process());
            }
        }
    }

    private static String abbreviate(String line) {
        return line.length() <= 80 ? line : line.substring(0, 77) + "...";
    }

    /** Writes {@code events} as JSON lines. */
    public static void writeJson(Path file, List<Event> events) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Event e : events) {
                ObjectNode n = JSON.createObjectNode();
                n.put("process", e.process());
                n.put("type", e.type().key());
                n.put("f", e.f());
                if (e.key() != null) {
                    n.put("key", e.key());
                }
                if (e.value() == null) {
                    n.putNull("value");
                } else if (e.value() instanceof Long l) {
                    n.put("value", l);
                } else {
                    ArrayNode a = n.putArray("value");
                    e.pair().forEach(a::add);
                }
                n.put("time", e.time());
                if (e.error() != null) {
                    n.put("error", e.error());
                }
                w.write(JSON.writeValueAsString(n));
                w.newLine();
            }
        }
    }

    /**
     * Writes one register's events as a Jepsen log: {@code read}, {@code write} and {@code cas} only, values as
     * Jepsen prints them, an error as a keyword ({@code :IndeterminateOperationStateException}).
     */
    public static void writeJepsen(Path file, List<Event> events) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Event e : events) {
                String value;
                if (e.error() != null && e.completion()) {
                    value = ":" + e.error().replaceAll("[^\\w-]+", "-").replaceAll("-+$", "");
                } else if (e.value() == null) {
                    value = "nil";
                } else if (e.value() instanceof Long l) {
                    value = Long.toString(l);
                } else {
                    value = "[" + e.pair().get(0) + " " + e.pair().get(1) + "]";
                }
                w.write("INFO  jepsen.util - " + e.process() + "\t:" + e.type().key() + "\t:" + e.f() + "\t" + value);
                w.newLine();
            }
        }
    }
}
