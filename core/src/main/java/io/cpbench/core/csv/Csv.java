package io.cpbench.core.csv;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The CSV files runs write and reports read, through Jackson's CSV format: a value is quoted only where CSV needs it
 * (a comma, a quote, a line break), a quote inside one doubled; a file is read by its header's column names, so a
 * later column or one an older file lacks does not move the others.
 */
public final class Csv {

    private static final CsvMapper MAPPER = CsvMapper.builder()
            .enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .enable(CsvParser.Feature.IGNORE_TRAILING_UNMAPPABLE)
            .build();
    private static final ObjectWriter ROW = MAPPER.writerFor(List.class).with(CsvSchema.emptySchema());
    private static final ObjectReader READER = MAPPER.readerFor(Map.class).with(CsvSchema.emptySchema().withHeader());

    private Csv() {
    }

    /** One line of values (without its line break); null is an empty value, anything else its text. */
    public static String row(Object... values) {
        List<String> text = new ArrayList<>(values.length);
        for (Object v : values) {
            text.add(v == null ? "" : v.toString());
        }
        try {
            String line = ROW.writeValueAsString(text);
            return line.endsWith("\n") ? line.substring(0, line.length() - 1) : line;
        } catch (IOException e) {
            throw new IllegalStateException("cannot write a CSV row: " + e.getMessage(), e);
        }
    }

    /**
     * A file's rows under its header.
     *
     * @param header the columns, as the first line names them
     * @param rows   each line after it: its values by column (a short line, cut off by an interrupted run, lacks its
     *               last columns)
     */
    public record Table(List<String> header, List<Row> rows) {
    }

    /** A line of a file: its number (the header is line 1) and its values by column. */
    public record Row(int line, Map<String, String> values) {

        /** The value in {@code column}; null when the line has no such column. */
        public String get(String column) {
            return values.get(column);
        }

        /** Whether the line has a value for every column of {@code table}'s header. */
        public boolean whole(Table table) {
            return values.size() >= table.header().size();
        }
    }

    /**
     * Reads {@code file}: its header line, then its rows.
     *
     * @throws IllegalArgumentException (one line, naming the file) when it cannot be read or is empty
     */
    public static Table read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(file + ": not readable CSV (" + firstLine(e) + ")", e);
        }
        if (text.isBlank()) {
            throw new IllegalArgumentException(file + ": empty; a header line comes first");
        }
        try (MappingIterator<Map<String, String>> it = READER.readValues(text)) {
            List<Row> rows = new ArrayList<>();
            int line = 1;
            while (it.hasNextValue()) {
                rows.add(new Row(++line, it.nextValue()));
            }
            return new Table(List.copyOf(((CsvSchema) it.getParserSchema()).getColumnNames()), List.copyOf(rows));
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(file + ": not readable CSV (" + firstLine(e) + ")", e);
        }
    }

    private static String firstLine(Exception e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
    }
}
