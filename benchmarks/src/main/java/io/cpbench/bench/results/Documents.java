package io.cpbench.bench.results;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cpbench.core.result.ResultFormatException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Reading the JSON documents runs write ({@code chaos.json}, {@code sweep.json}), and naming a run by their bytes. */
public final class Documents {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Reads the documents runs write into the types that wrote them; fields a later version added are skipped. */
    private static final ObjectMapper DOCUMENTS = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private Documents() {
    }

    /**
     * A run's JSON document as {@code type}, the type that wrote it; null when the file is missing.
     *
     * @param what how an error names the file's kind ("a chaos run's chaos.json")
     * @throws ResultFormatException (one line, naming the file) when it is not {@code what}
     */
    public static <T> T read(Path file, Class<T> type, String what) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new ResultFormatException(file + ": not readable JSON (" + firstLine(e) + ")", e);
        }
        try {
            return DOCUMENTS.treeToValue(tree, type);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw new ResultFormatException(file + ": not " + what + " (" + firstLine(e) + ")", e);
        }
    }

    /** The first 16 bytes of the SHA-256 of {@code bytes}, as hex: a run's id. */
    public static String id(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The id of a run read from a document: the hash of the file's bytes, so the same file is one run. */
    public static String idOf(Path file) {
        try {
            return id(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage());
        }
    }

    /** When a file was last written, as an instant; null when that cannot be read. */
    static String modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toInstant().toString();
        } catch (IOException e) {
            return null;
        }
    }

    private static String firstLine(Exception e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
    }
}
