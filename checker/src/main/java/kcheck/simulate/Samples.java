package kcheck.simulate;

import java.util.Arrays;

/** The values one run recorded, per measure and component (growable primitive arrays). */
final class Samples {
    private final double[][][] values;
    private final int[][] sizes;

    Samples(int[] components) {
        values = new double[components.length][][];
        sizes = new int[components.length][];
        for (int m = 0; m < components.length; m++) {
            values[m] = new double[components[m]][];
            sizes[m] = new int[components[m]];
        }
    }

    void add(int measure, int component, double v) {
        if (measure < 0 || measure >= values.length || component < 0 || component >= values[measure].length) {
            throw new IllegalArgumentException("sample for measure " + measure + " component " + component
                    + " outside the profile's measures (a profile bug)");
        }
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("sample " + v + " for measure " + measure + " (a profile bug)");
        }
        double[] a = values[measure][component];
        int n = sizes[measure][component];
        if (a == null) {
            a = new double[4];
        } else if (n == a.length) {
            a = Arrays.copyOf(a, n * 2);
        }
        a[n] = v;
        values[measure][component] = a;
        sizes[measure][component] = n + 1;
    }

    int size(int measure, int component) {
        return sizes[measure][component];
    }

    double get(int measure, int component, int i) {
        return values[measure][component][i];
    }
}
