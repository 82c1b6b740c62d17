package io.cpbench.bench.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The published schemas are what the result types generate, every file under results/reference validates against its
 * kind's schema, and a file that breaks the schema is caught (so the validation can fail). The ITs validate what
 * their runs write through {@link CliProcess}.
 */
class ResultSchemasTest {

    static final Path REFERENCE = DocsTest.ROOT.resolve("results/reference");

    @Test
    void theCommittedSchemasAreWhatTheTypesGenerate() throws Exception {
        List<String> stale = new ArrayList<>();
        for (String kind : ResultSchemas.KINDS.keySet()) {
            String generated = ResultSchemas.generate(kind);
            Path committed = ResultSchemas.file(kind);
            if (!Files.exists(committed) || !Files.readString(committed, StandardCharsets.UTF_8).equals(generated)) {
                Path fresh = Path.of("target", "schemas", committed.getFileName().toString());
                Files.createDirectories(fresh.getParent());
                Files.writeString(fresh, generated, StandardCharsets.UTF_8);
                stale.add(kind);
            }
        }
        assertThat(stale).as("schemas that differ from their types; regenerate them: cp benchmarks/target/schemas/*"
                + " docs/schemas/").isEmpty();
    }

    @Test
    void everyReferenceResultValidates() throws Exception {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(REFERENCE)) {
            files = walk.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        List<Path> notOurs = new ArrayList<>();
        for (Path file : files) {
            Optional<String> kind = ResultSchemas.kindOf(file);
            if (kind.isEmpty()) {
                notOurs.add(file);
                continue;
            }
            checked++;
            ResultSchemas.validate(file, kind.get()).forEach(m -> problems.add(REFERENCE.relativize(file) + ": " + m));
        }
        assertThat(problems).isEmpty();
        assertThat(checked).as("reference result files checked").isGreaterThan(200);
        // what is skipped is JMH's own output, kept beside the results folded from it
        assertThat(notOurs).allSatisfy(p -> assertThat(p.toString()).containsAnyOf("/jmh/"));
    }

    /**
     * The inventory's schema (docs/schemas/inventory.schema.json) accepts what the lab's Terraform writes and what
     * Inventory's Javadoc shows, and refuses a stray field, as Inventory.read does.
     */
    @Test
    void theLabsInventoryValidatesAndAStrayFieldDoesNot(@TempDir Path dir) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode outputs = json.readTree(DocsTest.ROOT.resolve("topology/src/test/resources/lab/terraform-outputs.json").toFile());
        Path lab = dir.resolve("lab-inventory.json");
        json.writeValue(lab.toFile(), outputs.path("inventory").path("value"));
        assertThat(ResultSchemas.validate(lab, "inventory")).isEmpty();
        io.cpbench.topology.Inventory.read(lab); // and the reader takes it

        Path hand = dir.resolve("hand.json");
        Files.writeString(hand, """
                {"format": "cpbench-inventory/1", "clusterName": "staging",
                 "members": [{"host": "10.0.0.11", "port": 5701, "priority": true, "slow": false},
                             {"host": "10.0.0.12", "port": 5701, "priority": false, "slow": false},
                             {"host": "10.0.0.13", "port": 5701, "priority": false, "slow": false}]}
                """);
        assertThat(ResultSchemas.validate(hand, "inventory")).isEmpty();
        io.cpbench.topology.Inventory.read(hand);

        Path stray = dir.resolve("stray.json");
        Files.writeString(stray, Files.readString(hand).replace("\"priority\": true, \"slow\": false",
                "\"priority\": true, \"slow\": false, \"zone\": \"a\""));
        assertThat(ResultSchemas.validate(stray, "inventory")).as("a field the type does not know").isNotEmpty();
        assertThatThrownBy(() -> io.cpbench.topology.Inventory.read(stray)).hasMessageContaining("zone");
    }

    @Test
    void aResultThatBreaksItsSchemaIsCaught(@TempDir Path dir) throws Exception {
        Path good;
        try (Stream<Path> walk = Files.walk(REFERENCE)) {
            good = walk.filter(p -> ResultSchemas.kindOf(p).filter("result"::equals).isPresent()).findFirst().orElseThrow();
        }
        ObjectMapper json = new ObjectMapper();
        ObjectNode wrongType = (ObjectNode) json.readTree(good.toFile());
        wrongType.put("ops", "many");
        ObjectNode unknown = (ObjectNode) json.readTree(good.toFile());
        unknown.put("opsPerSecnd", 12.0);
        ObjectNode missing = (ObjectNode) json.readTree(good.toFile());
        missing.remove("round");

        ObjectNode nan = (ObjectNode) json.readTree(good.toFile());
        nan.put("opsPerSecond", "NaN"); // how Jackson writes a double that is not a number
        ObjectNode word = (ObjectNode) json.readTree(good.toFile());
        word.put("opsPerSecond", "fast");

        assertThat(ResultSchemas.validate(good, "result")).isEmpty();
        assertThat(check(dir, "01-nan.json", nan)).isEmpty();
        assertThat(check(dir, "01-word.json", word)).anyMatch(m -> m.contains("opsPerSecond"));
        assertThat(check(dir, "01-wrong-type.json", wrongType)).anyMatch(m -> m.contains("ops"));
        assertThat(check(dir, "01-unknown.json", unknown)).anyMatch(m -> m.contains("opsPerSecnd"));
        assertThat(check(dir, "01-missing.json", missing)).anyMatch(m -> m.contains("round"));
        Files.writeString(dir.resolve("02-truncated.json"), "{\"format\": \"cpbench-result/1\", \"ops\": ");
        assertThat(ResultSchemas.validate(dir.resolve("02-truncated.json"), "result")).singleElement()
                .asString().startsWith("not JSON");
    }

    @Test
    void filesAreKnownByWhatTheyHoldOrTheirNames(@TempDir Path dir) throws Exception {
        Path jmhRun = REFERENCE.resolve("local-2core-jmh-leader-follower");
        assertThat(ResultSchemas.kindOf(REFERENCE.resolve("local-2core-quick-a/01-client-leader.json"))).contains("result");
        assertThat(ResultSchemas.kindOf(REFERENCE.resolve("local-2core-load-seed000/01-client-lb.load.json"))).contains("result");
        assertThat(ResultSchemas.kindOf(jmhRun.resolve("01-client-leader.jmh-thrpt.json"))).contains("result");
        // JMH's own JSON under the same name, and its other files: not cp-bench results
        assertThat(ResultSchemas.kindOf(jmhRun.resolve("jmh/01-client-leader.jmh-thrpt.json"))).isEmpty();
        assertThat(ResultSchemas.kindOf(jmhRun.resolve("jmh/01-client-leader.jmh-thrpt.report.json"))).isEmpty();
        assertThat(ResultSchemas.kindOf(jmhRun.resolve("jmh/harness-cost.json"))).isEmpty();
        for (String name : List.of("chaos", "sweep", "load", "starts")) {
            Path file = Files.writeString(dir.resolve(name + ".json"), "{}");
            assertThat(ResultSchemas.kindOf(file)).contains(name);
        }
    }

    private static List<String> check(Path dir, String name, ObjectNode node) throws Exception {
        Path file = dir.resolve(name);
        new ObjectMapper().writeValue(file.toFile(), node);
        return ResultSchemas.validate(file, "result");
    }
}
