package io.cpbench.core.result;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MarkdownTableTest {

    @Test
    void padsColumnsAndRightAlignsTheOnesAsked() {
        String table = MarkdownTable.of("op", "op/s").right(1).row("cas", "1,234.5").row("get", "7").render();
        assertThat(table).isEqualTo("""
                | op  |    op/s |
                | --- | ------: |
                | cas | 1,234.5 |
                | get |       7 |
                """);
    }

    @Test
    void leftAlignedByDefault() {
        assertThat(MarkdownTable.render(List.of("a", "long header"), List.of(List.of("xyzw", "1")))).isEqualTo("""
                | a    | long header |
                | ---- | ----------- |
                | xyzw | 1           |
                """);
    }

    @Test
    void aRowOfTheWrongWidthIsRefused() {
        assertThatThrownBy(() -> MarkdownTable.of("a", "b").row("only one"))
                .hasMessage("a row of 1 cells in a table of 2 columns: [only one]");
    }

    @Test
    void aCellWithAPipeOrALineBreakStaysOneCell() {
        String table = MarkdownTable.of("target", "error").row("a|b", "line 1\nline 2\r\n| x").render();
        assertThat(table).isEqualTo("""
                | target | error               |
                | ------ | ------------------- |
                | a\\|b   | line 1 line 2  \\| x |
                """);
        assertThat(table.lines()).hasSize(3);
    }
}
