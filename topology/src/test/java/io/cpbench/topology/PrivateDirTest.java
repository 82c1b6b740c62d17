package io.cpbench.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a shared {@code $TMPDIR} can hold at a cache's name before cp-bench gets there, and whether each is used: a
 * directory made by cp-bench is, a loosened, foreign, linked or plain-file one is not, with the reason.
 */
class PrivateDirTest {

    @TempDir
    Path tmp;

    private final UserPrincipal me = PrivateDir.currentUser();

    @Test
    void aMissingDirectoryIsMadeForTheOwnerAlone() throws Exception {
        Path dir = tmp.resolve("cpbench-cds-me");
        assertThat(PrivateDir.ensure(dir, me)).isEmpty();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(Files.getOwner(dir)).isEqualTo(me);
        assertThat(PrivateDir.ensure(dir, me)).as("found again").isEmpty();
    }

    @Test
    void aDirectoryOthersCanWriteIsRefused() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(PrivateDir.ensure(dir, me)).hasValueSatisfying(why -> assertThat(why)
                .isEqualTo(dir + " has mode rwxrwxrwx, not rwx------ (remove it, or chmod 700 it if it is yours)"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
        assertThat(PrivateDir.ensure(dir, me)).as("group may read").isPresent();
    }

    @Test
    void aDirectoryOfAnotherUsersIsRefused() throws Exception {
        Path dir = tmp.resolve("theirs");
        assertThat(PrivateDir.ensure(dir, me)).isEmpty();
        UserPrincipal other = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        assertThat(other).isNotEqualTo(me);
        // as if "nobody" had made it: this user is not its owner
        assertThat(PrivateDir.ensure(dir, other)).hasValueSatisfying(why ->
                assertThat(why).isEqualTo(dir + " is owned by " + me.getName() + ", not nobody"));
    }

    @Test
    void aLinkOrAFileAtTheNameIsRefused() throws Exception {
        Path real = tmp.resolve("real");
        assertThat(PrivateDir.ensure(real, me)).isEmpty();
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        assertThat(PrivateDir.ensure(link, me)).hasValue(link + " is not a directory (a symbolic link)");
        Path file = Files.createFile(tmp.resolve("file"));
        assertThat(PrivateDir.ensure(file, me)).hasValue(file + " is not a directory");
    }

    @Test
    void theUsersNameBecomesAFileNamePart() {
        String saved = System.getProperty("user.name");
        try {
            System.setProperty("user.name", "a/b c");
            assertThat(PrivateDir.userPart()).isEqualTo("a_b_c");
            System.setProperty("user.name", "..");
            assertThat(PrivateDir.userPart()).isEqualTo("u..");
        } finally {
            System.setProperty("user.name", saved);
        }
    }
}
