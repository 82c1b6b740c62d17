package io.cpbench.topology;

/**
 * One member of a topology as the suite sees it.
 *
 * @param index    0-based position in the topology, stable for the cluster's life
 * @param address  {@code host:port} the member announces; clients connect here
 * @param priority whether this member has CP leadership priority
 */
public record MemberRef(int index, String address, boolean priority) {

    public String name() {
        return "member-" + index;
    }

    @Override
    public String toString() {
        return name() + "(" + address + (priority ? ", priority" : "") + ")";
    }
}
