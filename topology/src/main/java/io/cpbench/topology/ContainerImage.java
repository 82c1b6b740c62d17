package io.cpbench.topology;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import org.testcontainers.images.builder.ImageFromDockerfile;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The image cp-bench's container members run, built here with no registry (docs/hazelcast-facts.md, "Docker and
 * Testcontainers without a registry"): a base image with a JRE 17 and iproute2, made from Debian's packages by
 * {@code build-base-image.sh} (debootstrap, then {@code docker import}); and on top of it the member's classpath, the same jars the local
 * topology starts members from. The member image is tagged with a hash of those jars, so it is rebuilt only when
 * they change; older member images are removed then.
 */
final class ContainerImage {

    /** The base image; override with the system property {@code cpbench.containers.base-image}. */
    static final String DEFAULT_BASE = "cpbench-jre17:local";
    static final String MEMBER_REPOSITORY = "cpbench-member";
    /** Images of another Hazelcast release's stock jar alone, tagged {@code <release>-<hash>}. */
    static final String STOCK_REPOSITORY = "cpbench-stock-member";
    /** Where a stock image's Hazelcast jar lives. */
    static final String STOCK_DIR = "/opt/cpbench/stock";
    /** Where the member's classpath lives in the image. */
    static final String CLASSPATH_DIR = "/opt/cpbench/cp";
    static final long BASE_BUILD_TIMEOUT_MINUTES = 15;

    /** A ready member image and its classpath inside the image. */
    record Built(String image, String classpath, boolean cached) {
    }

    private ContainerImage() {
    }

    static String baseImage() {
        return System.getProperty("cpbench.containers.base-image", DEFAULT_BASE);
    }

    /** Makes sure the base and member images exist; builds what is missing. Progress goes to {@code log}. */
    static Built ensure(DockerClient docker, PrintStream log) {
        String base = baseImage();
        if (!exists(docker, base)) {
            buildBase(base, log);
        }
        List<Path> entries = classpathEntries();
        String tag = MEMBER_REPOSITORY + ":" + hash(base, entries);
        List<String> inImage = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            inImage.add(CLASSPATH_DIR + "/" + name(i, entries.get(i)));
        }
        String classpath = String.join(":", inImage);
        if (exists(docker, tag)) {
            return new Built(tag, classpath, true);
        }
        java.util.Map<String, Path> files = new java.util.LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            files.put(name(i, entries.get(i)), entries.get(i));
        }
        build(log, tag, base, CLASSPATH_DIR, "member", files, entries.size() + " classpath entries");
        removeOlderImages(docker, MEMBER_REPOSITORY, tag, "");
        return new Built(tag, classpath, false);
    }

    /**
     * Makes sure an image exists whose only Hazelcast is {@code release}'s stock jar ({@code jar}), on the same base
     * image: no cp-bench class, as {@link StockCluster}'s members. Tagged with the release and a hash of the base
     * image's name and the jar's bytes; older images of the same release are removed when a new one is built.
     */
    static Built ensureStock(DockerClient docker, PrintStream log, HazelcastRelease release, Path jar) {
        String base = baseImage();
        if (!exists(docker, base)) {
            buildBase(base, log);
        }
        String tag = STOCK_REPOSITORY + ":" + release + "-" + hash(base, List.of(jar));
        String classpath = STOCK_DIR + "/hazelcast-" + release + ".jar";
        if (exists(docker, tag)) {
            return new Built(tag, classpath, true);
        }
        build(log, tag, base, STOCK_DIR, "stock-member", java.util.Map.of("hazelcast-" + release + ".jar", jar),
                jar.getFileName().toString());
        removeOlderImages(docker, STOCK_REPOSITORY, tag, release + "-");
        return new Built(tag, classpath, false);
    }

    /**
     * Builds {@code tag}: {@code base} with {@code files} (a name in {@code dir}, the file here) copied into {@code dir},
     * labelled {@code io.cpbench.image=kind}; {@code what} names the files in the progress line.
     */
    private static void build(PrintStream log, String tag, String base, String dir, String kind, java.util.Map<String, Path> files,
                              String what) {
        long start = System.nanoTime();
        log.println("[containers] building image " + tag + " from " + base + " and " + what + " ...");
        ImageFromDockerfile image = new ImageFromDockerfile(tag, false)
                .withDockerfileFromBuilder(b -> b.from(base).copy("files", dir).label("io.cpbench.image", kind).build());
        files.forEach((name, file) -> image.withFileFromPath("files/" + name, file));
        try {
            image.get(10, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new TopologyException("cannot build the member image " + tag + ": " + rootMessage(e), e);
        }
        log.println("[containers] built " + tag + " in " + String.format("%.1f s", (System.nanoTime() - start) / 1e9));
    }

    /** Runs build-base-image.sh from this jar; a clear error if it cannot (no debootstrap, not root). */
    private static void buildBase(String base, PrintStream log) {
        log.println("[containers] the base image " + base + " is missing; building it from Debian's packages"
                + " (debootstrap, about a minute; once per machine) ...");
        Path script;
        try (InputStream in = ContainerImage.class.getResourceAsStream("build-base-image.sh")) {
            if (in == null) {
                throw new TopologyException("build-base-image.sh is missing from cp-bench's jar");
            }
            script = Files.createTempFile("cpbench-build-base-image", ".sh");
            Files.write(script, in.readAllBytes());
        } catch (IOException e) {
            throw new TopologyException("cannot write build-base-image.sh: " + e.getMessage(), e);
        }
        try {
            Process process = new ProcessBuilder("bash", script.toString(), base).redirectErrorStream(true).start();
            process.getOutputStream().close();
            Thread copier = new Thread(() -> {
                try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    reader.lines().forEach(line -> log.println("[containers] " + line));
                } catch (IOException ignored) {
                    // The process went away; its exit code tells.
                }
            }, "cpbench-base-image-output");
            copier.setDaemon(true);
            copier.start();
            if (!process.waitFor(BASE_BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new TopologyException("building the base image " + base + " took more than "
                        + BASE_BUILD_TIMEOUT_MINUTES + " min; gave up");
            }
            copier.join(2000);
            if (process.exitValue() != 0) {
                throw new TopologyException("could not build the base image " + base + " (build-base-image.sh exited "
                        + process.exitValue() + "; see its lines above). It needs root, debootstrap and Debian's"
                        + " mirror; or build any image with a JRE 17 and iproute2 and name it with"
                        + " -Dcpbench.containers.base-image=IMAGE");
            }
        } catch (IOException e) {
            throw new TopologyException("cannot run build-base-image.sh (bash): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopologyException("interrupted while building the base image " + base);
        } finally {
            try {
                Files.deleteIfExists(script);
            } catch (IOException ignored) {
                // A temp file.
            }
        }
    }

    static boolean exists(DockerClient docker, String image) {
        try {
            docker.inspectImageCmd(image).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** The member's classpath on this machine: the jars (or class folders) the local topology uses. */
    static List<Path> classpathEntries() {
        List<Path> entries = new ArrayList<>();
        for (String entry : LocalProcessTopology.memberClasspath().split(File.pathSeparator)) {
            entries.add(Path.of(entry));
        }
        return entries;
    }

    private static String name(int i, Path entry) {
        return Files.isDirectory(entry) ? i + "-classes" : i + ".jar";
    }

    /** A hash of the base image name and every byte of the classpath: equal hashes, equal images. */
    static String hash(String base, List<Path> entries) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(base.getBytes(StandardCharsets.UTF_8));
            for (Path entry : entries) {
                List<Path> files;
                if (Files.isDirectory(entry)) {
                    try (Stream<Path> walk = Files.walk(entry)) {
                        files = walk.filter(Files::isRegularFile).sorted().toList();
                    }
                } else {
                    files = List.of(entry);
                }
                for (Path file : files) {
                    digest.update(entry.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                    digest.update(Files.readAllBytes(file));
                }
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (IOException e) {
            throw new TopologyException("cannot read the member classpath to build an image: " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Removes the images of {@code repository} whose tags start with {@code tagPrefix}, but {@code keep}. */
    private static void removeOlderImages(DockerClient docker, String repository, String keep, String tagPrefix) {
        try {
            docker.listImagesCmd().withImageNameFilter(repository).exec().forEach(image -> {
                List<String> tags = image.getRepoTags() == null ? List.of() : List.of(image.getRepoTags());
                boolean kept = tags.contains(keep) || tags.stream().noneMatch(t -> t.startsWith(repository + ":" + tagPrefix));
                if (!kept) {
                    try {
                        docker.removeImageCmd(image.getId()).withForce(false).exec();
                    } catch (RuntimeException inUse) {
                        // A container of another run uses it: leave it.
                    }
                }
            });
        } catch (RuntimeException ignored) {
            // Tidying only.
        }
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
