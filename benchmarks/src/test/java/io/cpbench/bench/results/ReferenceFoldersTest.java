package io.cpbench.bench.results;

import io.cpbench.bench.history.RunImport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every folder under results/reference backs what README.md and docs/ say with runs that cp-bench reads again
 * ({@code history import}, {@code report}), or says on a {@code **Run data:**} line of its README why it cannot: a
 * figure whose run was discarded is then marked as such where it is quoted, not taken for one that can be checked. A
 * folder that holds both (runs made again, beside figures whose runs were discarded) names on that line where the runs
 * are.
 */
class ReferenceFoldersTest {

    private static final Path REFERENCE = Path.of("../results/reference");
    /** The line that says what a folder keeps instead of runs, and why: at least a few words after the label. */
    private static final Pattern RUN_DATA = Pattern.compile("(?m)^\\*\\*Run data:\\*\\* (.{40,})$");

    @Test
    void everyReferenceFolderHoldsRunsThatAreReadAgainOrSaysWhyNot() throws IOException {
        List<String> problems = new ArrayList<>();
        int withRuns = 0;
        for (Path folder : folders()) {
            String name = folder.getFileName().toString();
            Path readme = folder.resolve("README.md");
            if (!Files.isRegularFile(readme)) {
                problems.add(name + ": no README.md (what was run, on what, by which command)");
                continue;
            }
            Matcher runData = RUN_DATA.matcher(Files.readString(readme));
            List<Path> runs = RunImport.find(folder);
            for (Path run : runs) {
                try {
                    RunImport.read(run, null);
                } catch (RuntimeException e) {
                    problems.add(REFERENCE.relativize(run) + ": does not read: " + e.getMessage());
                }
            }
            if (!runs.isEmpty()) {
                withRuns++;
                if (runData.find()) {
                    // a folder with runs and older figures whose runs were discarded: the line says which is which
                    if (runData.group(1).startsWith("not kept")) {
                        problems.add(name + ": its README says its run data was not kept, but it holds " + runs.size() + " run(s)");
                    }
                    for (Path run : runs) {
                        String top = folder.relativize(run).getName(0).toString();
                        if (!run.equals(folder) && !runData.group(1).contains(top)) {
                            problems.add(name + ": its '**Run data:**' line does not name " + top + ", which holds runs");
                        }
                    }
                }
            } else if (!runData.find()) {
                problems.add(name + ": holds no run that cp-bench reads, and its README has no '**Run data:**' line saying why");
            }
        }
        assertThat(problems).as("results/reference").isEmpty();
        assertThat(withRuns).as("folders holding runs").isGreaterThanOrEqualTo(30);
    }

    /** The check can fail: a folder with only a README and no word on its run data is named. */
    @Test
    void aFolderWithNeitherRunsNorAWordOnThemIsNamed() throws IOException {
        assertThat(RUN_DATA.matcher("# A study\n\nThe runs were not kept.\n").find()).isFalse();
        assertThat(RUN_DATA.matcher("# A study\n\n**Run data:** not kept: the directories were discarded then.\n").find())
                .isTrue();
        assertThat(RUN_DATA.matcher("**Run data:** none\n").find()).as("a reason, not a word").isFalse();
    }

    private static List<Path> folders() throws IOException {
        try (Stream<Path> dirs = Files.list(REFERENCE)) {
            return dirs.filter(Files::isDirectory).sorted().toList();
        }
    }
}
