package kcheck.model.cpudl;

import java.util.Arrays;
import java.util.StringJoiner;

import kcheck.model.Kernel;

/**
 * A {@code struct cpumask}: one bit per CPU, {@code nr_cpu_ids} bits. Only the operations
 * {@code cpudeadline.c} uses, with the kernel's names. {@code cpumask_any()} is
 * {@code cpumask_first()} in the kernel (include/linux/cpumask.h), so it returns the lowest CPU.
 */
public final class Cpumask {
    private final int nrCpus;
    private final long[] bits;

    public Cpumask(int nrCpus) {
        this.nrCpus = nrCpus;
        this.bits = new long[(nrCpus + 63) >>> 6];
    }

    public int nrCpus() {
        return nrCpus;
    }

    @Kernel(function = "cpumask_set_cpu", file = "include/linux/cpumask.h", version = "v4.8")
    public void setCpu(int cpu) {
        bits[cpu >>> 6] |= 1L << cpu;
    }

    @Kernel(function = "cpumask_clear_cpu", file = "include/linux/cpumask.h", version = "v4.8")
    public void clearCpu(int cpu) {
        bits[cpu >>> 6] &= ~(1L << cpu);
    }

    @Kernel(function = "cpumask_test_cpu", file = "include/linux/cpumask.h", version = "v4.8")
    public boolean testCpu(int cpu) {
        return cpu >= 0 && cpu < nrCpus && (bits[cpu >>> 6] & (1L << cpu)) != 0;
    }

    /** {@code cpumask_and(dst, a, b)}: {@code dst = a & b}; true if the result is not empty. */
    @Kernel(function = "cpumask_and", file = "include/linux/cpumask.h", version = "v4.8")
    public static boolean and(Cpumask dst, Cpumask a, Cpumask b) {
        long any = 0;
        for (int w = 0; w < dst.bits.length; w++) {
            dst.bits[w] = a.bits[w] & b.bits[w];
            any |= dst.bits[w];
        }
        return any != 0;
    }

    /** {@code cpumask_any()}, which is {@code cpumask_first()}: the lowest CPU set, or nr_cpu_ids if none. */
    @Kernel(function = "cpumask_any", file = "include/linux/cpumask.h", version = "v4.8")
    public int any() {
        for (int w = 0; w < bits.length; w++) {
            if (bits[w] != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(bits[w]);
            }
        }
        return nrCpus;
    }

    /** {@code cpumask_next(n, mask)}: the lowest CPU above {@code n} that is set, or nr_cpu_ids ({@code for_each_cpu}). */
    @Kernel(function = "cpumask_next", file = "include/linux/cpumask.h", version = "v6.12")
    public int next(int n) {
        for (int c = n + 1; c < nrCpus; c++) {
            if ((bits[c >>> 6] & (1L << c)) != 0) {
                return c;
            }
        }
        return nrCpus;
    }

    /** The mask as a bit set of the first 64 CPUs (for packing a model state). */
    public long low64() {
        return bits[0];
    }

    /** Sets exactly the CPUs of {@code m} among the first 64. */
    public void setLow64(long m) {
        clearAll();
        bits[0] = nrCpus >= 64 ? m : m & ((1L << nrCpus) - 1);
    }

    /** Hex, most significant non-zero 64-bit word first unpadded, lower words padded to 16 digits ({@code f}, {@code 10000000000000000}). */
    public String toHex() {
        int top = bits.length - 1;
        while (top > 0 && bits[top] == 0) {
            top--;
        }
        StringBuilder b = new StringBuilder(Long.toHexString(bits[top]));
        for (int w = top - 1; w >= 0; w--) {
            String h = Long.toHexString(bits[w]);
            b.append("0".repeat(16 - h.length())).append(h);
        }
        return b.toString();
    }

    /** Sets every CPU. */
    public void setAll() {
        Arrays.fill(bits, -1L);
        int tail = nrCpus & 63;
        if (tail != 0) {
            bits[bits.length - 1] = (1L << tail) - 1;
        }
    }

    /** Clears every CPU. */
    public void clearAll() {
        Arrays.fill(bits, 0L);
    }

    public boolean isEmpty() {
        for (long w : bits) {
            if (w != 0) {
                return false;
            }
        }
        return true;
    }

    public void copyFrom(Cpumask o) {
        System.arraycopy(o.bits, 0, bits, 0, bits.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cpumask m && m.nrCpus == nrCpus && Arrays.equals(m.bits, bits);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bits);
    }

    /** {@code {0,2,3}}. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(",", "{", "}");
        for (int c = 0; c < nrCpus; c++) {
            if (testCpu(c)) {
                j.add(Integer.toString(c));
            }
        }
        return j.toString();
    }
}
