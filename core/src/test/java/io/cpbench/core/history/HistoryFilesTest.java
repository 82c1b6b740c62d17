package io.cpbench.core.history;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HistoryFilesTest {

    @TempDir
    Path dir;

    private static final List<Event> EVENTS = List.of(
            Event.invoke(0, "write", "r", 3L, 10),
            Event.invoke(1, "cas", "r", List.of(3L, 4L), 11),
            new Event(0, Event.Type.OK, "write", "r", 3L, 20, null),
            new Event(1, Event.Type.INFO, "cas", "r", List.of(3L, 4L), 30, "IndeterminateOperationStateException"),
            Event.invoke(0, "read", "r", null, 40),
            new Event(0, Event.Type.OK, "read", "r", null, 50, null));

    @Test
    void jsonLinesRoundTrip() throws Exception {
        Path file = dir.resolve("h.jsonl");
        HistoryFiles.writeJson(file, EVENTS);
        History read = HistoryFiles.read(file);
        assertEquals(EVENTS, read.events());
        assertFalse(read.lines());
    }

    @Test
    void aJsonHistoryKeepsOneCopyOfEachRepeatedString() throws Exception {
        Path file = dir.resolve("h.jsonl");
        HistoryFiles.writeJson(file, EVENTS);
        List<Event> read = HistoryFiles.read(file).events();
        // each line is parsed on its own, so without sharing every event would hold strings of its own
        org.junit.jupiter.api.Assertions.assertSame(read.get(0).f(), read.get(2).f()); // "write"
        org.junit.jupiter.api.Assertions.assertSame(read.get(0).key(), read.get(5).key()); // "r"
    }

    @Test
    void blankLinesBeforeTheFirstEventKeepLineNumbers() throws Exception {
        assertError("\n\n{\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":1}\n{oops", "h.jsonl:4: not JSON");
    }

    @Test
    void jepsenLogsRoundTripWithoutKeysAndWithLineTimes() throws Exception {
        Path file = dir.resolve("h.log");
        HistoryFiles.writeJepsen(file, EVENTS);
        List<String> lines = Files.readAllLines(file);
        assertEquals("INFO  jepsen.util - 1\t:invoke\t:cas\t[3 4]", lines.get(1));
        assertEquals("INFO  jepsen.util - 1\t:info\t:cas\t:IndeterminateOperationStateException", lines.get(3));
        History read = HistoryFiles.read(file);
        assertTrue(read.lines());
        for (int i = 0; i < EVENTS.size(); i++) {
            Event e = EVENTS.get(i);
            assertEquals(new Event(e.process(), e.type(), e.f(), null, e.value(), i, e.error()), read.events().get(i));
        }
    }

    @Test
    void jepsenLinesWithSpacesAndNemesisLinesAreRead() throws Exception {
        Path file = dir.resolve("spaces.log");
        Files.writeString(file, "INFO  jepsen.util - 1   :invoke :read   nil\n"
                + "INFO  jepsen.util - :nemesis\t:info\t:start\tnil\n"
                + "INFO  jepsen.util - 1   :ok     :read   3\n");
        List<Event> events = HistoryFiles.read(file).events();
        assertEquals(2, events.size());
        assertEquals(3L, events.get(1).value());
    }

    @Test
    void badFilesSayWhereAndWhat() throws Exception {
        assertError("{\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":1}\n{oops",
                "h.jsonl:2: not JSON");
        assertError("{\"process\":0,\"type\":\"begin\",\"f\":\"read\",\"time\":1}", "h.jsonl:1: unknown event type 'begin'");
        assertError("{\"process\":0,\"type\":\"invoke\",\"f\":\"write\",\"value\":\"x\",\"time\":1}",
                "h.jsonl:1: 'value' must be null, a whole number or [from, to]");
        assertError("{\"process\":0,\"type\":\"ok\",\"f\":\"read\",\"time\":1}", "process 0 completes read that it never invoked");
        assertError("{\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":5}\n"
                + "{\"process\":1,\"type\":\"invoke\",\"f\":\"read\",\"time\":4}", "not in time order");
        assertError("INFO  jepsen.util - 1\t:invoke\t:read\tnil\nINFO  jepsen.util - 1\t:invoke\t:read\tnil",
                "process 1 invokes read while its read is still open");
        assertError("hello world", "h.jsonl:1: not a Jepsen history line");
        assertError("INFO  jepsen.util - 1\t:invoke\t:write\t[1 2 3]", "value '[1 2 3]' is not nil");
        assertError("\n\n", "empty");
    }

    private void assertError(String content, String expected) throws Exception {
        Path file = dir.resolve("h.jsonl");
        Files.writeString(file, content);
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> HistoryFiles.read(file));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    }
}
