package io.cpbench.topology;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The chaos faults over SSH on the AWS lab, end to end but for SSH and root: the SSH command lines
 * {@link FaultsOverSsh} builds, and the lab's own {@code cpbench-fault} script, rendered from the Terraform template
 * and run with bash, with {@code systemctl}, {@code systemd-run}, {@code iptables}, {@code tc} and {@code ip}
 * replaced by stubs that log what they were asked. (iptables, systemd and netem themselves run only on the lab's
 * hosts.)
 */
class FaultsOverSshTest {

    static final Inventory LAB = Inventory.read(Path.of("src", "test", "resources", "lab", "terraform-outputs.json"));
    static final String SSH = "ssh -o BatchMode=yes -o ConnectTimeout=10 -o StrictHostKeyChecking=yes "
            + "-o UserKnownHostsFile=/home/admin/.ssh/cpbench-lab.known_hosts "
            + "-i /home/admin/.ssh/cpbench-lab ";

    @TempDir
    Path dir;
    Path script;
    Path log;
    final List<String> sent = new ArrayList<>();
    final List<String> readmitted = new ArrayList<>();

    /** Sends each call to the rendered script, as sudo on the host would, and keeps the ssh command line. */
    final Ssh.Shell shell = (argv, timeout) -> {
        sent.add(String.join(" ", argv));
        assertThat(timeout).isLessThanOrEqualTo(Duration.ofSeconds(60));
        String remote = argv.get(argv.size() - 1);
        assertThat(remote).startsWith(Inventory.Ssh.LAB_FAULT_COMMAND + " ");
        String host = argv.get(argv.size() - 2);
        return run(host, remote.substring(Inventory.Ssh.LAB_FAULT_COMMAND.length() + 1).split(" "));
    };

    @BeforeEach
    void stubs() throws Exception {
        script = dir.resolve("cpbench-fault");
        Files.writeString(script, LabFaultScript.rendered());
        log = dir.resolve("log");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        stub(bin, "systemctl", "");
        stub(bin, "systemd-run", "");
        stub(bin, "tc", "");
        stub(bin, "ip", "echo 'default via 10.42.1.1 dev ens5 proto dhcp src 10.42.1.12 metric 100'");
        // iptables -C (is the jump in place?) says no, as on a fresh host
        stub(bin, "iptables", "[ \"$1\" = -C ] && exit 1");
    }

    void stub(Path bin, String name, String body) throws Exception {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/bin/bash\necho \"$HOST: " + name + " $*\" >> " + log + "\n" + body + "\nexit 0\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    Ssh.Shell.Result run(String host, String... args) {
        try {
            List<String> argv = new ArrayList<>(List.of("bash", script.toString()));
            argv.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
            pb.environment().put("PATH", dir.resolve("bin") + ":" + System.getenv("PATH"));
            pb.environment().put("HOST", host.substring(host.indexOf('@') + 1));
            Process p = pb.start();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            return new Ssh.Shell.Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    List<String> done() throws Exception {
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        Files.deleteIfExists(log);
        return lines;
    }

    /** Records what the restart asked of CP Subsystem, in order. */
    final FaultsOverSsh.Readmission recording = new FaultsOverSsh.Readmission() {
        @Override
        public void forget(MemberRef member, Duration timeout) {
            readmitted.add("forget " + member.index());
        }

        @Override
        public void readmit(MemberRef member, Duration timeout) {
            readmitted.add("readmit " + member.index() + " within " + Math.round(timeout.toMillis() / 1000.0) + " s");
        }
    };

    FaultsOverSsh faults() {
        return new FaultsOverSsh(LAB, shell, recording);
    }

    static MemberRef member(int i) {
        return new MemberRef(i, LAB.members().get(i).address(), i == 0);
    }

    @Test
    void killAndRestartStopTheMemberServiceAndReadmitItToCp() throws Exception {
        FaultsOverSsh faults = faults();

        faults.kill(member(1));
        assertThat(sent).containsExactly(SSH + "admin@10.42.1.12 sudo /usr/local/bin/cpbench-fault kill");
        assertThat(done()).containsExactly("10.42.1.12: systemctl kill --signal=SIGKILL cpbench-member.service");

        faults.restart(member(1), Duration.ofSeconds(90));
        assertThat(done()).containsExactly("10.42.1.12: systemctl reset-failed cpbench-member.service",
                "10.42.1.12: systemctl start cpbench-member.service");
        assertThat(readmitted).containsExactly("forget 1", "readmit 1 within 90 s");
    }

    @Test
    void aPauseArmsItsOwnResumeOnTheHostBeforeStoppingTheMember() throws Exception {
        FaultsOverSsh faults = faults();

        faults.pause(member(2), Duration.ofMillis(19_500));
        assertThat(done()).containsExactly("10.42.1.13: systemctl stop cpbench-resume.timer",
                "10.42.1.13: systemd-run --quiet --unit=cpbench-resume --on-active=20s systemctl kill --signal=SIGCONT cpbench-member.service",
                "10.42.1.13: systemctl kill --signal=SIGSTOP cpbench-member.service");

        faults.healAll(); // resumes what is still paused
        assertThat(done()).containsExactly("10.42.1.13: systemctl kill --signal=SIGCONT cpbench-member.service",
                "10.42.1.13: systemctl stop cpbench-resume.timer");
        faults.healAll();
        assertThat(done()).isEmpty();
    }

    @Test
    void aPartitionDropsPacketsAtTheCutSideInBothDirections() throws Exception {
        FaultsOverSsh faults = faults();

        faults.isolate(List.of(member(0), member(3)), Faults.Cut.MEMBERS);
        List<String> rules = done();
        for (String host : List.of("10.42.1.11", "10.42.1.14")) {
            assertThat(rules).containsSubsequence(host + ": iptables -N CPBENCH-IN", host + ": iptables -I INPUT 1 -j CPBENCH-IN",
                    host + ": iptables -I OUTPUT 1 -j CPBENCH-OUT",
                    host + ": iptables -A CPBENCH-IN -s 10.42.1.12 -j DROP", host + ": iptables -A CPBENCH-OUT -d 10.42.1.12 -j DROP",
                    host + ": iptables -A CPBENCH-IN -s 10.42.1.15 -j DROP");
            assertThat(rules).filteredOn(r -> r.startsWith(host) && r.contains("DROP")).hasSize(6); // 3 hosts, 2 ways
        }
        assertThat(rules).noneMatch(r -> r.contains("-s 10.42.1.11") || r.contains("-s 10.42.1.14"));

        faults.heal();
        assertThat(done()).containsExactly("10.42.1.11: iptables -F CPBENCH-IN", "10.42.1.11: iptables -F CPBENCH-OUT",
                "10.42.1.14: iptables -F CPBENCH-IN", "10.42.1.14: iptables -F CPBENCH-OUT");
    }

    @Test
    void cuttingClientsOffKeepsMemberTrafficAndDropsTheRestOfHazelcastsPort() throws Exception {
        faults().isolate(List.of(member(4)), Faults.Cut.CLIENTS);

        List<String> rules = done();
        assertThat(rules).contains("10.42.1.15: iptables -A CPBENCH-IN -p tcp --dport 5701 -s 10.42.1.11 -j RETURN",
                "10.42.1.15: iptables -A CPBENCH-OUT -p tcp --sport 5701 -d 10.42.1.15 -j RETURN");
        assertThat(rules.get(rules.size() - 2)).isEqualTo("10.42.1.15: iptables -A CPBENCH-IN -p tcp --dport 5701 -j DROP");
        assertThat(rules.get(rules.size() - 1)).isEqualTo("10.42.1.15: iptables -A CPBENCH-OUT -p tcp --sport 5701 -j DROP");
        assertThat(rules).noneMatch(r -> r.contains("--dport 22") || r.contains("-s 10.42.1.11 -j DROP"));
    }

    @Test
    void slowIsNetemOnTheDefaultRoutesDevice() throws Exception {
        FaultsOverSsh faults = faults();

        faults.slow(member(1), Duration.ofMillis(200));
        faults.slow(member(2), Duration.ofNanos(1_500_000));
        faults.unslow();

        assertThat(done()).filteredOn(l -> l.contains(" tc ")).containsExactly(
                "10.42.1.12: tc qdisc replace dev ens5 root netem delay 200ms",
                "10.42.1.12: tc qdisc del dev ens5 root",
                "10.42.1.13: tc qdisc replace dev ens5 root netem delay 1500us",
                "10.42.1.13: tc qdisc del dev ens5 root");
    }

    @Test
    void badArgumentsAndFailuresNameTheHostAndWhatItSaid() throws Exception {
        assertThat(run("x@h", "pause").exitCode()).isEqualTo(2);
        assertThat(run("x@h", "pause").output()).contains("pause needs SECONDS");
        assertThat(run("x@h", "dance").output()).contains("usage: cpbench-fault");
        assertThat(run("x@h", "isolate-clients", "x").exitCode()).isEqualTo(2);

        Ssh.Shell down = (argv, timeout) -> new Ssh.Shell.Result(255, "ssh: connect to host 10.42.1.13 port 22: Connection timed out");
        FaultsOverSsh faults = new FaultsOverSsh(LAB, down, recording);
        assertThatThrownBy(() -> faults.kill(member(2))).isInstanceOf(TopologyException.class)
                .hasMessage("fault 'kill' on member-2 (10.42.1.13) failed (exit 255): ssh: connect to host 10.42.1.13 port 22:"
                        + " Connection timed out");
    }

    @Test
    void anInventoryWithoutSshOrWithMembersSharingAHostCannotHaveFaults() {
        Inventory noSsh = new Inventory(Inventory.FORMAT, "c", null, null, LAB.members(), null);
        List<Inventory.Member> shared = LAB.members().stream()
                .map(m -> new Inventory.Member("127.0.0.1", m.port(), m.priority(), m.slow(), null)).toList();

        assertThat(FaultsOverSsh.usable(LAB)).isTrue();
        assertThat(FaultsOverSsh.usable(noSsh)).isFalse();
        assertThat(FaultsOverSsh.usable(new Inventory(Inventory.FORMAT, "c", null, null, shared, LAB.ssh()))).isFalse();
        assertThatThrownBy(() -> new FaultsOverSsh(noSsh, shell, recording)).hasMessageContaining("one member per host");
    }
}
