package io.cpbench.topology;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The {@code terraform} binary, run offline: no update check (CHECKPOINT_DISABLE), no CLI configuration of the user's,
 * no provider (only {@code fmt} and {@code console}, which need none). Every call is bounded in time.
 */
final class Terraform {

    private static final long TIMEOUT_SECONDS = 60;

    private final Path binary;

    private Terraform(Path binary) {
        this.binary = binary;
    }

    static Optional<Terraform> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Arrays.stream(path.split(java.io.File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, "terraform"))
                .filter(Files::isExecutable)
                .findFirst()
                .map(Terraform::new);
    }

    static Terraform get() {
        return find().orElseThrow(() -> new AssertionError("no 'terraform' on the PATH"));
    }

    /** What one call printed and how it ended. */
    record Result(int exitCode, String stdout, String stderr) {
    }

    Result run(Path workDir, String stdin, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(binary.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
        Map<String, String> env = builder.environment();
        env.put("CHECKPOINT_DISABLE", "1"); // no call to HashiCorp's update service
        env.put("TF_IN_AUTOMATION", "1");
        env.put("TF_CLI_CONFIG_FILE", "/dev/null");
        env.put("TF_INPUT", "0");
        Path out = Files.createTempFile("terraform", ".out");
        Path err = Files.createTempFile("terraform", ".err");
        try {
            builder.redirectOutput(out.toFile()).redirectError(err.toFile());
            Process process = builder.start();
            try (var in = process.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("terraform " + String.join(" ", args) + " did not end within "
                        + TIMEOUT_SECONDS + " s");
            }
            return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * Evaluates string expressions with {@code terraform console} in {@code workDir} (whose .tf files give the
     * variables): the strings, in order. A piped console prints only the value of its last line and reads one line per
     * expression, so they go as one line, {@code base64encode(jsonencode([...]))}.
     */
    List<String> evaluateStrings(Path workDir, List<String> expressions, String... args) throws Exception {
        for (String expression : expressions) {
            if (expression.contains("\n")) {
                throw new IllegalArgumentException("one line per expression: " + expression);
            }
        }
        String stdin = "base64encode(jsonencode([" + String.join(", ", expressions) + "]))\n";
        List<String> command = new ArrayList<>(List.of("console"));
        command.addAll(List.of(args));
        Result result = run(workDir, stdin, command.toArray(String[]::new));
        String value = result.stdout().strip();
        if (result.exitCode() != 0 || !value.startsWith("\"") || !value.endsWith("\"")) {
            throw new AssertionError("terraform console failed (" + result.exitCode() + "): "
                    + abbreviate(result.stderr().strip() + " " + value));
        }
        byte[] json = Base64.getDecoder().decode(value.substring(1, value.length() - 1));
        List<String> values = new ObjectMapper().readValue(json, new TypeReference<List<String>>() { });
        if (values.size() != expressions.size()) {
            throw new AssertionError("terraform console gave " + values.size() + " values for "
                    + expressions.size() + " expressions");
        }
        return values;
    }

    private static String abbreviate(String text) {
        return text.length() <= 2000 ? text : text.substring(0, 2000) + "...";
    }
}
