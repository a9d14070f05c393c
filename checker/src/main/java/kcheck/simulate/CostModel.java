package kcheck.simulate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.random.RandomGenerator;

import kcheck.model.ModelInputException;
import kcheck.model.SimulationProfile.Cost;

/**
 * The costs of one simulation: a profile's {@link Cost} defaults, overridden from a cost file
 * ({@code --cost FILE}) and single settings ({@code --set-cost NAME=VALUE}). Every value says
 * where it came from, so the output can show which numbers are not the documented defaults.
 *
 * <p>Cost file format: one setting per line, {@code name = value [distribution]}, {@code #} starts
 * a comment; distributions are {@code exp}, {@code fixed} and {@code uniform} (on [0.5, 1.5] x
 * value). Unknown names and bad values are input errors (one line, exit 2).
 */
public final class CostModel {
    /** A resolved cost: the profile's entry, the value and distribution in force, and where they came from. */
    public record Entry(Cost cost, double value, String distribution, String origin) {
        public boolean isDefault() {
            return origin.equals("default");
        }
    }

    private final List<Entry> entries;
    private final Map<String, Integer> index = new LinkedHashMap<>();
    private final double[] values;
    private final int[] kinds;

    private static final int FIXED = 0;
    private static final int EXP = 1;
    private static final int UNIFORM = 2;

    private CostModel(List<Entry> entries) {
        this.entries = List.copyOf(entries);
        values = new double[entries.size()];
        kinds = new int[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            index.put(e.cost().name(), i);
            values[i] = e.value();
            kinds[i] = switch (e.distribution()) {
                case "exp" -> EXP;
                case "uniform" -> UNIFORM;
                default -> FIXED;
            };
        }
    }

    /** The defaults of {@code costs}, then the settings of {@code file} (may be null), then {@code settings} ("name=value [dist]"). */
    public static CostModel resolve(String model, List<Cost> costs, Path file, List<String> settings) {
        Map<String, Entry> out = new LinkedHashMap<>();
        for (Cost c : costs) {
            out.put(c.name(), new Entry(c, c.value(), c.distribution(), "default"));
        }
        if (file != null) {
            List<String> lines;
            try {
                lines = Files.readAllLines(file);
            } catch (IOException e) {
                throw new ModelInputException("cannot read --cost " + file + ": " + e.getMessage());
            }
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                int hash = line.indexOf('#');
                String text = (hash >= 0 ? line.substring(0, hash) : line).trim();
                if (!text.isEmpty()) {
                    apply(model, out, text, file + ":" + (i + 1));
                }
            }
        }
        for (String s : settings == null ? List.<String>of() : settings) {
            apply(model, out, s, "--set-cost");
        }
        return new CostModel(new ArrayList<>(out.values()));
    }

    private static void apply(String model, Map<String, Entry> out, String text, String where) {
        int eq = text.indexOf('=');
        if (eq < 0) {
            throw new ModelInputException(where + ": expected 'name = value [exp|fixed|uniform]', got '" + text + "'");
        }
        String name = text.substring(0, eq).trim();
        String[] rest = text.substring(eq + 1).trim().split("\\s+");
        Entry e = out.get(name);
        if (e == null) {
            throw new ModelInputException(where + ": " + model + " has no cost '" + name + "' (known: "
                    + String.join(", ", out.keySet()) + ")");
        }
        double v;
        try {
            v = Double.parseDouble(rest[0]);
        } catch (NumberFormatException ex) {
            throw new ModelInputException(where + ": cost '" + name + "' must be a number, got '" + rest[0] + "'");
        }
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new ModelInputException(where + ": cost '" + name + "' must be a finite number >= 0, got " + rest[0]);
        }
        String dist = e.distribution();
        if (rest.length > 1) {
            if (e.cost().distribution().equals("-")) {
                throw new ModelInputException(where + ": '" + name + "' is a plain number (" + e.cost().unit() + "), not a duration: no distribution");
            }
            dist = rest[1].toLowerCase(Locale.ROOT);
            if (!List.of("exp", "fixed", "uniform").contains(dist)) {
                throw new ModelInputException(where + ": distribution of '" + name + "' must be exp, fixed or uniform, got '" + rest[1] + "'");
            }
        }
        if (rest.length > 2) {
            throw new ModelInputException(where + ": expected 'name = value [exp|fixed|uniform]', got '" + text + "'");
        }
        out.put(name, new Entry(e.cost(), v, dist, where));
    }

    public List<Entry> entries() {
        return entries;
    }

    /** Index of {@code name}; an {@link IllegalArgumentException} (a profile bug) if there is none. */
    public int index(String name) {
        Integer i = index.get(name);
        if (i == null) {
            throw new IllegalArgumentException("no cost '" + name + "' (known: " + String.join(", ", index.keySet()) + ")");
        }
        return i;
    }

    public double value(int i) {
        return values[i];
    }

    /** A sample of cost {@code i}. */
    public double sample(int i, RandomGenerator r) {
        double v = values[i];
        return switch (kinds[i]) {
            case EXP -> v == 0 ? 0 : -v * Math.log1p(-r.nextDouble());
            case UNIFORM -> v * (0.5 + r.nextDouble());
            default -> v;
        };
    }

    /** The settings that differ from the defaults, one "name = value dist (origin)" each. */
    public List<String> overrides() {
        List<String> out = new ArrayList<>();
        for (Entry e : entries) {
            if (!e.isDefault()) {
                out.add(e.cost().name() + " = " + Format.number(e.value()) + (e.distribution().equals("-") ? "" : " " + e.distribution())
                        + " (" + e.origin() + ")");
            }
        }
        return out;
    }
}
