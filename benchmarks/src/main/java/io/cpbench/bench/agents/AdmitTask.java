package io.cpbench.bench.agents;

import com.hazelcast.cluster.Member;

import java.util.concurrent.Callable;

/**
 * The admission challenge: the coordinator sends it to each member that says it is an agent (or another coordinator)
 * before counting it. The challenge is sealed with the control secret and names the member it is for; the answer is
 * sealed too, and repeats the nonce, the member's UUID, its name and its role. A member that joined with the control
 * cluster's name but not the secret cannot answer, and a challenge relayed to another member is refused by it. Member
 * attributes (a role, a name) are what a member says of itself; the answer is what the coordinator trusts.
 */
final class AdmitTask extends ControlTask implements Callable<String> {

    private static final long serialVersionUID = 1L;
    private final String sealed;

    AdmitTask(String sealed) {
        this.sealed = sealed;
    }

    /** The challenge for {@code member}, with {@code nonce}, sealed under {@code secret}. */
    static AdmitTask challenge(ControlSecret secret, String nonce, Member member) {
        return new AdmitTask(secret.seal("cpbench-admit " + nonce + " " + member.getUuid(), ControlCluster.MESSAGE_VALID));
    }

    /** The answer an admitted member gives: what {@link #call} seals. */
    static String answer(String nonce, String member, String name, String role) {
        return "cpbench-admitted " + nonce + " " + member + " " + name + " " + role;
    }

    @Override
    public String call() {
        ControlSecret secret = secret();
        String text = secret == null ? null : secret.open(sealed);
        if (text == null) {
            System.out.println("refused an admission challenge not sealed with this control cluster's secret");
            return "refused";
        }
        Member self = control.getCluster().getLocalMember();
        String[] parts = text.split(" ");
        if (parts.length != 3 || !parts[0].equals("cpbench-admit") || !parts[2].equals(self.getUuid().toString())) {
            System.out.println("refused an admission challenge for another member");
            return "refused";
        }
        return secret.seal(answer(parts[1], parts[2], ControlCluster.name(self), self.getAttribute(ControlCluster.ROLE)),
                ControlCluster.MESSAGE_VALID);
    }
}
