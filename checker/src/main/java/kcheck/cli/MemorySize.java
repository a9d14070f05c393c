package kcheck.cli;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code --memory SIZE} budget: a number and a binary unit (k, m, g, t; also written kb/kib,
 * mb/mib, ...; none: bytes), from 1 MiB up to the JVM's heap. The stores, trace links and queues
 * the budget counts all live in the heap, so a budget above it could never be honoured: the
 * search would run out of heap before it reached the budget.
 */
final class MemorySize {
    static final long MIN = 1L << 20;
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)\\s*(?:([kmgt])(?:i?b)?|b)?");
    private static final String UNITS = "a number and a unit k, m, g or t (binary: 1g = 1024m; kb/kib, mb/mib, ... mean the "
            + "same; no unit: bytes), e.g. 512m or 8g";

    private MemorySize() {
    }

    /** Bytes of {@code text}; a {@link UsageException} naming the accepted units or the limit crossed. */
    static long parse(String text, long heapBytes) {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new UsageException("--memory: cannot read '" + text + "' as a size: give " + UNITS);
        }
        int shift = m.group(2) == null ? 0 : 10 * (1 + "kmgt".indexOf(m.group(2)));
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(1L << shift));
        if (bytes.compareTo(BigDecimal.valueOf(MIN)) < 0) {
            throw new UsageException("--memory must be at least 1m, got '" + text + "'");
        }
        if (bytes.compareTo(BigDecimal.valueOf(heapBytes)) > 0) {
            throw new UsageException("--memory " + text + " is more than this JVM's heap (" + Format.bytes(heapBytes) + "), where "
                    + "the search keeps what the budget counts: give at most " + (heapBytes >> 20) + "m, or a larger heap "
                    + "(KCHECK_JAVA_OPTS=-Xmx...)");
        }
        return bytes.longValue();
    }
}
