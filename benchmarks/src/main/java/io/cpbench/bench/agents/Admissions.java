package io.cpbench.bench.agents;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.cpbench.core.run.Driver;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Which members of the control cluster the coordinator takes as agents: each must answer a sealed challenge bound to
 * its member UUID ({@link AdmitTask}); one that answers wrongly, or under a name already admitted, is refused for good.
 */
final class Admissions {

    private static final Duration ADMIT_TIMEOUT = Duration.ofSeconds(10);

    private final HazelcastInstance control;
    private final ControlSecret secret;
    private final PrintStream console;
    /** The members admitted as agents, by name. */
    private final Map<String, Member> admitted = new ConcurrentHashMap<>();
    /** Members refused for good (a wrong answer, or a name already admitted), and those already said to be waited on. */
    private final Set<UUID> refused = ConcurrentHashMap.newKeySet();
    private final Set<UUID> said = ConcurrentHashMap.newKeySet();

    Admissions(HazelcastInstance control, ControlSecret secret, PrintStream console) {
        this.control = control;
        this.secret = secret;
        this.console = console;
    }

    /** Whether {@code member} is the agent admitted under {@code name}. */
    boolean isAdmitted(String name, Member member) {
        return member.equals(admitted.get(name));
    }

    /**
     * The admitted agents in the control cluster now, by name. A member that says it is an agent is first sent the
     * admission challenge; one that answers it wrongly, or under a name already admitted, is refused for good with a
     * line; one that does not answer in time is asked again at the next call.
     */
    Map<String, Member> agents() {
        Set<Member> members = control.getCluster().getMembers();
        admitted.values().removeIf(m -> !members.contains(m));
        for (Member m : members) {
            if (!ControlCluster.isAgent(m) || refused.contains(m.getUuid()) || admitted.containsValue(m)) {
                continue;
            }
            String name = ControlCluster.name(m);
            Admission admission = admit(m, ControlCluster.AGENT);
            if (!admission.answered()) {
                if (said.add(m.getUuid())) {
                    console.println("    waiting for the member at " + where(m) + " (it calls itself " + name + "): "
                            + admission.why());
                }
                continue;
            }
            String why = admission.why();
            if (why == null && admitted.containsKey(name)) {
                why = "an agent of that name is admitted already, at " + where(admitted.get(name));
            }
            if (why == null) {
                admitted.put(name, m);
            } else {
                refused.add(m.getUuid());
                console.println("    refused the member at " + where(m) + " that calls itself " + name + ": " + why);
            }
        }
        return new java.util.TreeMap<>(admitted);
    }

    /**
     * What a member did with the admission challenge.
     *
     * @param answered false when no answer came (asked again later)
     * @param why      null when it answered rightly; else why it is not admitted
     */
    record Admission(boolean answered, String why) {
        boolean admitted() {
            return answered && why == null;
        }
    }

    /** Sends {@code m} the admission challenge and checks that it answered as a {@code role} of its name. */
    Admission admit(Member m, String role) {
        String nonce = UUID.randomUUID().toString();
        String answer;
        try {
            answer = control.<String>getExecutorService(ControlCluster.EXECUTOR)
                    .submitToMember(AdmitTask.challenge(secret, nonce, m), m)
                    .get(ADMIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Admission(false, "did not answer the admission challenge (interrupted)");
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return new Admission(false, "did not answer the admission challenge (" + Driver.describe(e) + ")");
        }
        String text = secret.open(answer);
        String expected = AdmitTask.answer(nonce, m.getUuid().toString(), ControlCluster.name(m), role);
        return new Admission(true, expected.equals(text) ? null : "it did not answer the admission challenge with the secret");
    }

    private static String where(Member m) {
        return m.getAddress().getHost() + ":" + m.getAddress().getPort();
    }
}
