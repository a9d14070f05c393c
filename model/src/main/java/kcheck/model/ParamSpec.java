package kcheck.model;

import java.util.List;

/**
 * A model parameter: name, default value, one-line description and the values it accepts
 * (an integer range, or a list of choices). A {@code quiet} parameter (one that selects how the
 * model is searched, not what it models, such as a reduction) is left out of the parameters a run
 * prints and records while it has its default value.
 */
public record ParamSpec(String name, String defaultValue, String description,
                        long min, long max, List<String> choices, boolean quiet) {

    public ParamSpec(String name, String defaultValue, String description, long min, long max, List<String> choices) {
        this(name, defaultValue, description, min, max, choices, false);
    }

    /** An integer parameter in {@code [min, max]}. */
    public static ParamSpec integer(String name, long defaultValue, long min, long max, String description) {
        return new ParamSpec(name, Long.toString(defaultValue), description, min, max, List.of());
    }

    /** A parameter taking one of {@code choices}; the first is the default. */
    public static ParamSpec choice(String name, String description, String... choices) {
        return new ParamSpec(name, choices[0], description, 0, 0, List.of(choices));
    }

    /** A choice, printed and recorded only when not {@code choices[0]} (see the class comment). */
    public static ParamSpec quietChoice(String name, String description, String... choices) {
        return new ParamSpec(name, choices[0], description, 0, 0, List.of(choices), true);
    }

    public boolean isInteger() {
        return choices.isEmpty();
    }

    /** Checks {@code value}; throws {@link ModelInputException} with a one-line message if bad. */
    public String validate(String model, String value) {
        if (isInteger()) {
            long v;
            try {
                v = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                if (value.trim().matches("[-+]?\\d+")) {
                    String digits = value.trim();
                    throw new ModelInputException(model + ": parameter '" + name + "' must be in " + min + ".." + max + ", got "
                            + (digits.length() > 24 ? digits.substring(0, 24) + "... (" + digits.length() + " digits)" : digits));
                }
                throw new ModelInputException(model + ": parameter '" + name + "' must be an integer, got '" + value + "'");
            }
            if (v < min || v > max) {
                throw new ModelInputException(model + ": parameter '" + name + "' must be in " + min + ".." + max + ", got " + v);
            }
            return Long.toString(v);
        }
        if (!choices.contains(value)) {
            throw new ModelInputException(model + ": parameter '" + name + "' must be one of " + String.join("|", choices)
                    + ", got '" + value + "'");
        }
        return value;
    }

    /** "1..8" or "ticket|tas", for listings. */
    public String domain() {
        return isInteger() ? min + ".." + max : String.join("|", choices);
    }
}
