package io.cpbench.core.stats;

/** Percentages as users write them on the command line. */
public final class Percent {

    private Percent() {
    }

    /**
     * "5%", "2.5%" or "0.05" as a fraction (0.05).
     *
     * @param what the option or property, for the error
     * @throws IllegalArgumentException naming {@code what} when {@code text} is not a number or percentage
     */
    public static double parse(String text, String what) {
        String t = text.trim();
        try {
            return t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100 : Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": '" + text + "' is not a percentage; write it like 5%");
        }
    }
}
