package io.cpbench.topology;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Which SSH commands network (b) sends to the lab's member hosts, and what it does when they fail. The shell here
 * records commands instead of running them: tc netem itself only runs on the lab's hosts (this machine's kernel
 * has no netem).
 */
class NetemOverSshTest {

    static final Inventory LAB = Inventory.read(Path.of("src", "test", "resources", "lab", "terraform-outputs.json"));

    final List<String> sent = new ArrayList<>();
    String showOutput = "qdisc netem 8001: root refcnt 2 limit 1000 delay 10ms";
    int exitCode = 0;

    final Ssh.Shell shell = (argv, timeout) -> {
        sent.add(String.join(" ", argv));
        assertThat(timeout).isLessThanOrEqualTo(Duration.ofSeconds(60));
        return new Ssh.Shell.Result(exitCode, argv.get(argv.size() - 1).endsWith("show") ? showOutput : "");
    };

    @Test
    void slowingAMemberDownRunsNetemOnItsHostAndChecksItIsInPlace() {
        NetemOverSsh netem = new NetemOverSsh(LAB, shell);

        netem.slowDown(4, Duration.ofMillis(10));

        String ssh = "ssh -o BatchMode=yes -o ConnectTimeout=10 -o StrictHostKeyChecking=yes "
            + "-o UserKnownHostsFile=/home/admin/.ssh/cpbench-lab.known_hosts "
                + "-i /home/admin/.ssh/cpbench-lab admin@10.42.1.15 sudo /usr/local/bin/cpbench-netem ";
        assertThat(sent).containsExactly(ssh + "on 10ms", ssh + "show");
        assertThat(netem.slowMember()).hasValue(4);
        assertThat(netem.delay()).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    void switchingBackOrToAnotherMemberTurnsTheOldDelayOff() {
        NetemOverSsh netem = new NetemOverSsh(LAB, shell);
        netem.slowDown(4, Duration.ofMillis(10));
        sent.clear();

        netem.slowDown(3, Duration.ofMillis(10));
        netem.clear();

        assertThat(sent).extracting(s -> s.substring(s.indexOf("admin@")))
                .containsExactly("admin@10.42.1.15 sudo /usr/local/bin/cpbench-netem off",
                        "admin@10.42.1.14 sudo /usr/local/bin/cpbench-netem on 10ms",
                        "admin@10.42.1.14 sudo /usr/local/bin/cpbench-netem show",
                        "admin@10.42.1.14 sudo /usr/local/bin/cpbench-netem off");
        assertThat(netem.slowMember()).isEmpty();
    }

    @Test
    void resetTurnsTheInventorysSlowMemberOff() {
        new NetemOverSsh(LAB, shell).reset();

        assertThat(sent).singleElement().asString().endsWith("admin@10.42.1.15 sudo /usr/local/bin/cpbench-netem off");
    }

    @Test
    void failuresNameTheHostAndWhatItSaid() {
        NetemOverSsh netem = new NetemOverSsh(LAB, shell);
        showOutput = "qdisc fq_codel 0: root refcnt 2";

        assertThatThrownBy(() -> netem.slowDown(4, Duration.ofMillis(10))).isInstanceOf(TopologyException.class)
                .hasMessageContaining("netem is not in place on member-4 (10.42.1.15)").hasMessageContaining("fq_codel");

        exitCode = 255;
        assertThatThrownBy(() -> netem.slowDown(4, Duration.ofMillis(10))).isInstanceOf(TopologyException.class)
                .hasMessageContaining("netem 'on 10ms' on member-4 (10.42.1.15) failed (exit 255)");
    }

    @Test
    void delaysAreWrittenInTcsSyntax() {
        assertThat(NetemOverSsh.tcTime(Duration.ofMillis(10))).isEqualTo("10ms");
        assertThat(NetemOverSsh.tcTime(Duration.ofNanos(10_500_000))).isEqualTo("10500us");
    }

    @Test
    void anInventoryWithoutSshCannotSwitchNetworkB() {
        Inventory noSsh = new Inventory(Inventory.FORMAT, "c", null, null, LAB.members(), null);

        assertThatThrownBy(() -> new NetemOverSsh(noSsh, shell)).hasMessageContaining("no ssh section");
    }
}
