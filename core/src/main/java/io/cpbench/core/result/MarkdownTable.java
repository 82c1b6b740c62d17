package io.cpbench.core.result;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The one Markdown table writer: padded columns, so the table also reads as plain text on a terminal, and columns
 * of numbers right-aligned where asked ({@code ---:}). Every table cp-bench prints or writes goes through it.
 */
public final class MarkdownTable {

    private final List<String> header;
    private final boolean[] right;
    private final List<List<String>> rows = new ArrayList<>();

    private MarkdownTable(List<String> header) {
        this.header = List.copyOf(header);
        this.right = new boolean[header.size()];
    }

    public static MarkdownTable of(String... header) {
        return new MarkdownTable(Arrays.asList(header));
    }

    public static MarkdownTable of(List<String> header) {
        return new MarkdownTable(header);
    }

    /** Right-aligns these columns (0-based), as numbers read best. */
    public MarkdownTable right(int... columns) {
        for (int c : columns) {
            right[c] = true;
        }
        return this;
    }

    public MarkdownTable row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("a row of " + cells.size() + " cells in a table of " + header.size()
                    + " columns: " + cells);
        }
        rows.add(cells.stream().map(MarkdownTable::cell).toList());
        return this;
    }

    /**
     * A cell's text as one cell: a '|' escaped (it would end the cell) and line breaks made spaces (they would end the
     * row). Cells carry what a run met, such as an error message or a fault's target, not only numbers.
     */
    static String cell(String text) {
        String t = String.valueOf(text);
        StringBuilder out = new StringBuilder(t.length());
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '|') {
                out.append("\\|");
            } else if (c == '\n' || c == '\r') {
                out.append(' ');
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    public MarkdownTable row(String... cells) {
        return row(Arrays.asList(cells));
    }

    public MarkdownTable rows(List<List<String>> more) {
        more.forEach(this::row);
        return this;
    }

    /** A table with left-aligned columns. */
    public static String render(List<String> header, List<List<String>> rows) {
        return of(header).rows(rows).render();
    }

    public String render() {
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = Math.max(3, header.get(i).length());
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header, widths);
        List<String> rule = new ArrayList<>();
        for (int i = 0; i < widths.length; i++) {
            rule.add(right[i] ? "-".repeat(widths[i] - 1) + ":" : "-".repeat(widths[i]));
        }
        line(out, rule, widths);
        rows.forEach(row -> line(out, row, widths));
        return out.toString();
    }

    private void line(StringBuilder out, List<String> cells, int[] widths) {
        out.append('|');
        for (int i = 0; i < widths.length; i++) {
            String pad = " ".repeat(widths[i] - cells.get(i).length());
            out.append(' ').append(right[i] ? pad + cells.get(i) : cells.get(i) + pad).append(" |");
        }
        out.append('\n');
    }
}
