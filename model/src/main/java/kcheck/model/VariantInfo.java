package kcheck.model;

/**
 * A named variant of a model: {@code before}, {@code after}, a named known bug such as
 * {@code rfc-v2}, a seeded mutant (a deliberate one-line bug used to show that a property
 * catches what it claims to catch), or a real kernel bug (a historical bug fixed in mainline,
 * reintroduced into the port: {@code bug-<12-hex fix commit>}, see {@link RealBug}).
 *
 * @param bug the fix commit this variant undoes, or {@code null} if it is not a real kernel bug
 */
public record VariantInfo(String name, String description, boolean mutant, RealBug bug) {

    /**
     * The mainline fix of a real kernel bug that a {@code bug-*} variant reintroduces.
     *
     * @param commit  the fix commit's id, 12 hex digits, as found in kernel history
     * @param subject the fix commit's subject line, verbatim
     * @param fixedIn the first kernel release that contains the fix (e.g. {@code v4.9})
     */
    public record RealBug(String commit, String subject, String fixedIn) {
        public RealBug {
            if (commit == null || !commit.matches("[0-9a-f]{12}")) {
                throw new IllegalArgumentException("a fix commit id is 12 lower-case hex digits: " + commit);
            }
        }
    }

    public VariantInfo(String name, String description, boolean mutant) {
        this(name, description, mutant, null);
    }

    public static VariantInfo of(String name, String description) {
        return new VariantInfo(name, description, false, null);
    }

    public static VariantInfo mutant(String name, String description) {
        return new VariantInfo(name, description, true, null);
    }

    /**
     * A real kernel bug, named {@code bug-<commit>}: {@code description} says in one line which
     * lines of the fix are undone in which port.
     */
    public static VariantInfo realBug(String commit, String subject, String fixedIn, String description) {
        RealBug b = new RealBug(commit, subject, fixedIn);
        return new VariantInfo("bug-" + commit, description, false, b);
    }

    /** True for a {@code bug-*} variant. */
    public boolean realBug() {
        return bug != null;
    }
}
