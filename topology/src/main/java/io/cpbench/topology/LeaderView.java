package io.cpbench.topology;

import java.util.List;

/**
 * What the live members said about the {@code default} group's leader at one moment.
 *
 * @param leader    the leader named by the members that know the highest term, or null if none is known
 * @param term      that highest term, or -1
 * @param agreeing  how many members named this leader in this term
 * @param answered  how many members answered
 * @param answers   every member's answer, for diagnostics
 * @param source    where it was read: {@value Leadership#MEMBERS} (cp-bench's query, each member asked) or
 *                  {@value Leadership#METRICS} (the members' published Raft metrics; may be a publication period old)
 */
public record LeaderView(MemberRef leader, int term, int agreeing, int answered, List<LeaderQuery.Answer> answers,
                         String source) {

    public LeaderView {
        answers = List.copyOf(answers);
    }

    /** Every member that answered names the same leader in the same term. */
    public boolean unanimous() {
        return leader != null && answered > 0 && agreeing == answered;
    }

    /** Same leader, same term: nothing happened in between. */
    public boolean sameLeadershipAs(LeaderView other) {
        return other != null && leader != null && leader.equals(other.leader) && term == other.term;
    }

    public String describe() {
        return leader == null ? "no leader (" + answered + " members answered)"
                : leader.name() + " " + leader.address() + " term " + term + " (" + agreeing + "/" + answered + " agree"
                + (Leadership.METRICS.equals(source) ? ", from metrics" : "") + ")";
    }
}
