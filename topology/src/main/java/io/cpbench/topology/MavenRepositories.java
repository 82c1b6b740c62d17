package io.cpbench.topology;

import org.apache.maven.settings.Mirror;
import org.apache.maven.settings.Server;
import org.apache.maven.settings.Settings;
import org.apache.maven.settings.building.DefaultSettingsBuilderFactory;
import org.apache.maven.settings.building.DefaultSettingsBuildingRequest;
import org.apache.maven.settings.building.SettingsBuildingException;
import org.eclipse.aether.ConfigurationProperties;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.RepositorySystemSession;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.repository.RepositoryPolicy;
import org.eclipse.aether.resolution.ArtifactRequest;
import org.eclipse.aether.resolution.ArtifactResolutionException;
import org.eclipse.aether.supplier.RepositorySystemSupplier;
import org.eclipse.aether.supplier.SessionBuilderSupplier;
import org.eclipse.aether.transfer.ArtifactNotFoundException;
import org.eclipse.aether.transfer.ChecksumFailureException;
import org.eclipse.aether.util.repository.AuthenticationBuilder;
import org.eclipse.aether.util.repository.DefaultAuthenticationSelector;
import org.eclipse.aether.util.repository.DefaultMirrorSelector;
import org.eclipse.aether.util.repository.DefaultProxySelector;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Jars had the way Maven has them: through Maven's own resolver (Maven Resolver, with its supplier) and the user's
 * settings ({@code ~/.m2/settings.xml}, and {@code $MAVEN_HOME/conf/settings.xml} when {@code maven.home} is set), so
 * that mirrors, proxies, server credentials and {@code localRepository} apply, as they do to a build. Passwords in
 * settings.xml must be plain: encrypted ones ({@code {...}}) are not decrypted here.
 *
 * <p>The remote repository is Maven Central, or {@code -Dcpbench.maven.repository=URL}; a mirror in settings.xml
 * that matches {@code central} replaces it. Downloads time out (10 s to connect, 3 min per request) and their
 * checksums must match (policy "fail"); the repository must be reached over HTTPS (plain HTTP only on loopback). A jar
 * already in the local repository is not taken on trust: its SHA-1 is checked against the {@code .sha1} beside it
 * (which Maven keeps), or, when there is none, the repository's.
 */
public final class MavenRepositories {

    /** Where jars come from, unless {@code -Dcpbench.maven.repository} names another (a test's) or a mirror applies. */
    public static final String CENTRAL = "https://repo.maven.apache.org/maven2/";
    private static final int CONNECT_TIMEOUT_MS = 10_000;
    /** The 5.4.0 jar is some 17 MB: this allows about 100 KB/s. */
    private static final int REQUEST_TIMEOUT_MS = 180_000;

    private MavenRepositories() {
    }

    /** The user's effective settings; empty settings when there are none. One line when a file is malformed. */
    static Settings settings() {
        Path user = Path.of(System.getProperty("user.home"), ".m2", "settings.xml");
        DefaultSettingsBuildingRequest request = new DefaultSettingsBuildingRequest()
                .setSystemProperties(System.getProperties());
        if (Files.isRegularFile(user)) {
            request.setUserSettingsFile(user.toFile());
        }
        String mavenHome = System.getProperty("maven.home");
        if (mavenHome != null && Files.isRegularFile(Path.of(mavenHome, "conf", "settings.xml"))) {
            request.setGlobalSettingsFile(Path.of(mavenHome, "conf", "settings.xml").toFile());
        }
        try {
            return new DefaultSettingsBuilderFactory().newInstance().build(request).getEffectiveSettings();
        } catch (SettingsBuildingException e) {
            throw new IllegalArgumentException("cannot read Maven's settings (" + user + "): "
                    + e.getProblems().stream().findFirst().map(Object::toString).orElse(e.getMessage()));
        }
    }

    /** The local repository: {@code -Dmaven.repo.local}, else settings.xml's {@code localRepository}, else ~/.m2/repository. */
    public static Path local() {
        String property = System.getProperty("maven.repo.local");
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String configured = settings().getLocalRepository();
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /**
     * The jar {@code group:artifact:version}: from the local repository when it is there and matches its checksum,
     * else resolved into it.
     *
     * @param what how errors name what asked for it ("--hazelcast-version 5.3.8")
     * @throws IllegalArgumentException with one line when it cannot be had
     */
    public static Path resolveChecked(String group, String artifact, String version, String what) {
        Settings settings = settings();
        Path local = local();
        Path jar = local.resolve(Path.of(group.replace('.', '/'), artifact, version, artifact + "-" + version + ".jar"));
        String coordinates = group + ":" + artifact + ":" + version;
        if (Files.isRegularFile(jar)) {
            checkLocal(jar, settings, local, group, artifact, version, what);
            return jar;
        }
        try (Resolver resolver = new Resolver(settings, local)) {
            resolver.requireHttps(what);
            try {
                return resolver.resolve(new DefaultArtifact(group, artifact, "jar", version));
            } catch (ArtifactResolutionException e) {
                throw new IllegalArgumentException(what + ": cannot fetch " + resolver.url(group, artifact, version, "jar")
                        + " (" + why(e) + "); offline, put the jar at " + jar + " first, for example with ./mvnw"
                        + " dependency:get -Dartifact=" + coordinates);
            }
        }
    }

    /** The URL {@link #resolveChecked} fetches {@code group:artifact:version}'s jar from, with the user's settings applied. */
    public static String source(String group, String artifact, String version) {
        try (Resolver resolver = new Resolver(settings(), local())) {
            return resolver.url(group, artifact, version, "jar");
        }
    }

    /** Checks a jar already in the local repository against its .sha1, or the repository's when it has none. */
    private static void checkLocal(Path jar, Settings settings, Path local, String group, String artifact, String version,
                                   String what) {
        Path sha1File = jar.resolveSibling(jar.getFileName() + ".sha1");
        String expected;
        String from;
        try {
            if (Files.isRegularFile(sha1File)) {
                expected = Files.readString(sha1File, StandardCharsets.US_ASCII).trim().split("\\s+")[0];
                from = "its .sha1 beside it";
            } else {
                try (Resolver resolver = new Resolver(settings, local)) {
                    resolver.requireHttps(what);
                    Path fetched = resolver.resolve(new DefaultArtifact(group, artifact, "jar.sha1", version));
                    expected = Files.readString(fetched, StandardCharsets.US_ASCII).trim().split("\\s+")[0];
                    from = "the repository's .sha1";
                } catch (ArtifactResolutionException e) {
                    throw new IllegalArgumentException(what + ": cannot check " + jar + ": it has no .sha1 beside it, and"
                            + " the repository's cannot be had (" + why(e) + "); delete it and fetch it again with ./mvnw"
                            + " dependency:get -Dartifact=" + group + ":" + artifact + ":" + version);
                }
            }
            String actual = sha1(jar);
            if (!actual.equalsIgnoreCase(expected)) {
                throw new IllegalArgumentException(what + ": the jar in the local repository, " + jar + ", is not what"
                        + " was published (its SHA-1 is " + actual + ", " + from + " says " + expected + "); delete "
                        + jar.getParent() + " and run again");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(what + ": cannot read " + jar + ": " + e.getMessage());
        }
    }

    /** {@code algorithm}'s digest of {@code file}, in lower-case hex. */
    static String digest(Path file, String algorithm) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance(algorithm);
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha1(Path file) throws IOException {
        return digest(file, "SHA-1");
    }

    /** Why a resolution failed, in a few words: the cause that says most. */
    private static String why(ArtifactResolutionException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ChecksumFailureException c && c.getActual() != null && !c.getActual().isEmpty()) {
                return "its SHA-1 is " + c.getActual() + ", the repository says " + c.getExpected();
            }
            if (t instanceof ArtifactNotFoundException) {
                return "no such release there (HTTP 404)";
            }
            if (t instanceof java.net.ConnectException) {
                return "cannot connect";
            }
            if (t instanceof java.net.SocketTimeoutException) {
                return "timed out";
            }
            if (t instanceof java.net.UnknownHostException) {
                return "unknown host " + t.getMessage();
            }
        }
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse(message);
    }

    /** A repository system and session with the user's settings; closed after use. */
    private static final class Resolver implements AutoCloseable {
        private final RepositorySystem system;
        private final RepositorySystemSession.CloseableSession session;
        private final List<RemoteRepository> repositories;

        Resolver(Settings settings, Path local) {
            system = new RepositorySystemSupplier().get();
            DefaultMirrorSelector mirrors = new DefaultMirrorSelector();
            for (Mirror m : settings.getMirrors()) {
                mirrors.add(m.getId(), m.getUrl(), m.getLayout(), false, m.isBlocked(), m.getMirrorOf(), m.getMirrorOfLayouts());
            }
            DefaultProxySelector proxies = new DefaultProxySelector();
            for (org.apache.maven.settings.Proxy p : settings.getProxies()) {
                if (p.isActive()) {
                    AuthenticationBuilder auth = new AuthenticationBuilder();
                    if (p.getUsername() != null) {
                        auth.addUsername(p.getUsername()).addPassword(p.getPassword());
                    }
                    proxies.add(new org.eclipse.aether.repository.Proxy(p.getProtocol(), p.getHost(), p.getPort(),
                            auth.build()), p.getNonProxyHosts());
                }
            }
            DefaultAuthenticationSelector credentials = new DefaultAuthenticationSelector();
            for (Server s : settings.getServers()) {
                credentials.add(s.getId(), new AuthenticationBuilder().addUsername(s.getUsername())
                        .addPassword(s.getPassword()).addPrivateKey(s.getPrivateKey(), s.getPassphrase()).build());
            }
            session = new SessionBuilderSupplier(system).get()
                    .withLocalRepositoryBaseDirectories(local)
                    .setMirrorSelector(mirrors).setProxySelector(proxies).setAuthenticationSelector(credentials)
                    .setOffline(settings.isOffline())
                    .setChecksumPolicy(RepositoryPolicy.CHECKSUM_POLICY_FAIL)
                    .setUpdatePolicy(RepositoryPolicy.UPDATE_POLICY_NEVER)
                    .setSystemProperties(System.getProperties())
                    .setConfigProperty(ConfigurationProperties.CONNECT_TIMEOUT, CONNECT_TIMEOUT_MS)
                    .setConfigProperty(ConfigurationProperties.REQUEST_TIMEOUT, REQUEST_TIMEOUT_MS)
                    .build();
            String base = System.getProperty("cpbench.maven.repository", CENTRAL);
            RemoteRepository central = new RemoteRepository.Builder("central", "default", base)
                    .setPolicy(new RepositoryPolicy(true, RepositoryPolicy.UPDATE_POLICY_NEVER,
                            RepositoryPolicy.CHECKSUM_POLICY_FAIL))
                    .setSnapshotPolicy(new RepositoryPolicy(false, null, null)).build();
            repositories = system.newResolutionRepositories(session, List.of(central));
        }

        Path resolve(DefaultArtifact artifact) throws ArtifactResolutionException {
            return system.resolveArtifact(session, new ArtifactRequest(artifact, repositories, null)).getArtifact().getPath();
        }

        /**
         * Refuses a repository (or the mirror that replaces it) reached over plain HTTP: whoever can alter that traffic
         * could swap a jar and its checksum together, and read the credentials sent with it. A repository on this
         * machine's loopback (a test's, or a local repository manager) is allowed.
         */
        void requireHttps(String what) {
            String url = repositories.get(0).getUrl();
            java.net.URI uri;
            try {
                uri = java.net.URI.create(url);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + ": the repository's address " + url + " is not a URL");
            }
            String scheme = String.valueOf(uri.getScheme()).toLowerCase(Locale.ROOT);
            if (scheme.equals("https") || (scheme.equals("http") && loopback(uri.getHost()))) {
                return;
            }
            throw new IllegalArgumentException(what + ": refusing to fetch from " + url + " (a mirror in settings.xml?):"
                    + " jars are fetched over HTTPS only (plain HTTP only from this machine's loopback)");
        }

        private static boolean loopback(String host) {
            if (host == null) {
                return false;
            }
            String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
            return h.equalsIgnoreCase("localhost") || h.equals("::1") || h.matches("127(\\.\\d{1,3}){3}");
        }

        /** Where the jar is fetched from: the repository as settings.xml makes it (a mirror's URL, when one applies). */
        String url(String group, String artifact, String version, String extension) {
            String base = repositories.get(0).getUrl();
            return (base.endsWith("/") ? base : base + "/") + String.format(Locale.ROOT, "%s/%s/%s/%s-%s.%s",
                    group.replace('.', '/'), artifact, version, artifact, version, extension);
        }

        @Override
        public void close() {
            session.close();
            system.shutdown();
        }
    }
}
