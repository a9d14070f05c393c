package kcheck.model;

/**
 * Packs named bit fields into a fixed number of {@code long}s. A field never straddles two words,
 * so reading one is a shift and a mask. Build the layout once per model instance; then
 * {@link #words()} is the model's {@link Model#width()}.
 */
public final class Layout {
    private int word;
    private int used;
    private boolean frozen;

    /** Adds a field of {@code bits} bits (1..64); {@code bits == 0} gives a field that is always 0. */
    public Field field(int bits) {
        if (frozen) {
            throw new IllegalStateException("layout already in use");
        }
        if (bits < 0 || bits > 64) {
            throw new IllegalArgumentException("bits " + bits);
        }
        if (bits == 0) {
            return new Field(0, 0, 0L);
        }
        if (used + bits > 64) {
            word++;
            used = 0;
        }
        Field f = new Field(word, used, bits == 64 ? -1L : (1L << bits) - 1);
        used += bits;
        return f;
    }

    /** Adds a field wide enough for values {@code 0..maxValue}. */
    public Field fieldFor(long maxValue) {
        return field(bitsFor(maxValue));
    }

    /** Number of bits needed for values {@code 0..maxValue}. */
    public static int bitsFor(long maxValue) {
        return maxValue <= 0 ? 0 : 64 - Long.numberOfLeadingZeros(maxValue);
    }

    /** Number of words used so far; freezes the layout. */
    public int words() {
        frozen = true;
        return used == 0 && word == 0 ? 1 : word + 1;
    }

    /** One packed field: word index, shift and mask. */
    public static final class Field {
        private final int word;
        private final int shift;
        private final long mask;

        Field(int word, int shift, long mask) {
            this.word = word;
            this.shift = shift;
            this.mask = mask;
        }

        public long get(long[] s) {
            return (s[word] >>> shift) & mask;
        }

        public int getInt(long[] s) {
            return (int) ((s[word] >>> shift) & mask);
        }

        public void set(long[] s, long v) {
            s[word] = (s[word] & ~(mask << shift)) | ((v & mask) << shift);
        }

        /** Largest value the field holds. */
        public long max() {
            return mask;
        }
    }
}
