package io.cpbench.bench.scenario;

/** The network a scenario runs on, as the seed names them. */
public enum Network {
    /** Network (a): plain, nothing delayed. */
    PLAIN("a", "plain"),
    /** Network (b): one follower (the slow member) has a delay added to everything it sends. */
    ONE_SLOW_FOLLOWER("b", "one follower slow");

    private final String code;
    private final String description;

    Network(String code, String description) {
        this.code = code;
        this.description = description;
    }

    /** The seed's letter, as result files and tables carry it: "a" or "b". */
    public String code() {
        return code;
    }

    public String description() {
        return description;
    }

    /** Whether a member must be slowed down for it. */
    public boolean slowsAMember() {
        return this == ONE_SLOW_FOLLOWER;
    }
}
