package io.cpbench.bench.agents;

import java.util.concurrent.Callable;

/**
 * Reads the agent's clock, in microseconds since the epoch: the coordinator's offset measurement. The reply is sealed
 * and bound to the coordinator's nonce and this member ({@link #reply}), so a member without the secret can neither
 * answer for an agent nor replay an old answer.
 */
final class ClockTask extends ControlTask implements Callable<String> {

    private static final long serialVersionUID = 2L;
    private final String nonce;

    ClockTask(String nonce) {
        this.nonce = nonce;
    }

    @Override
    public String call() {
        ControlSecret secret = secret();
        if (secret == null) {
            return "refused";
        }
        String member = control.getCluster().getLocalMember().getUuid().toString();
        return secret.seal(reply(nonce, member, AgentState.nowMicros()), ControlCluster.MESSAGE_VALID);
    }

    static String reply(String nonce, String member, long micros) {
        return "cpbench-clock " + nonce + " " + member + " " + micros;
    }

    /** The microseconds in {@code sealed} when it is the answer of {@code member} to {@code nonce}; else null. */
    static Long open(String sealed, ControlSecret secret, String nonce, String member) {
        String text = secret.open(sealed);
        String prefix = reply(nonce, member, 0).replaceAll("0$", "");
        if (text == null || !text.startsWith(prefix) || !text.substring(prefix.length()).matches("\\d{1,19}")) {
            return null;
        }
        return Long.parseLong(text.substring(prefix.length()));
    }
}
