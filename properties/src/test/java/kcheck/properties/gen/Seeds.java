package kcheck.properties.gen;

/**
 * Where every random choice of the property suites comes from: the system property
 * {@code kcheck.seed}, which the parent pom pins for every Maven build (20240611, CI's seed, so a
 * local {@code mvn -B verify} repeats CI's run; {@code -Dkcheck.seed=S} or the environment
 * variable {@code KCHECK_SEED} changes it), else {@code KCHECK_SEED} (a run outside Maven, e.g. in
 * an IDE). {@code random}, or neither given, draws a fresh seed. The seed in use is printed, so a
 * failure can be reproduced by passing it back.
 */
public final class Seeds {
    private Seeds() {
    }

    /** The base seed of this run, printed once per suite with the suite's name. */
    public static long seed(String suite) {
        String given = System.getProperty("kcheck.seed", System.getenv("KCHECK_SEED"));
        long seed;
        if (given != null && !given.isBlank() && !given.trim().equals("random")) {
            try {
                seed = Long.parseLong(given.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("kcheck.seed must be a long or 'random', got '" + given + "'");
            }
        } else {
            seed = System.nanoTime() ^ 0x5DEECE66DL;
        }
        System.out.println("[" + suite + "] seed " + seed + " (repeat with -Dkcheck.seed=" + seed + ")");
        return seed;
    }
}
