package kcheck.cli;

import picocli.CommandLine.Option;

/** {@code check --cluster}: run the search partitioned over a kcheck cluster. */
final class ClusterOptions {
    @Option(names = "--cluster", paramLabel = "local:N|HOST:PORT[,...]", description = "partition the search over a cluster: "
            + "local:N starts N nodes in this JVM; HOST:PORT,... are seed nodes of running 'kcheck worker's")
    String cluster;

    @Option(names = "--nodes", paramLabel = "N", description = "with --cluster HOST:PORT,...: wait for N workers "
            + "(default: one per seed named)")
    Integer nodes;

    /** Checks the option's form; returns the number of nodes to wait for. */
    int validate() {
        if (cluster == null) {
            if (nodes != null) {
                throw new UsageException("--nodes applies only with --cluster");
            }
            return 0;
        }
        String c = cluster.trim();
        if (c.startsWith("local:")) {
            int n;
            try {
                n = Integer.parseInt(c.substring(6));
            } catch (NumberFormatException e) {
                throw new UsageException("--cluster local:N needs a number of nodes, got '" + cluster + "'");
            }
            if (n < 1 || n > 16) {
                throw new UsageException("--cluster local:N: N must be in 1..16, got " + n);
            }
            if (nodes != null && nodes != n) {
                throw new UsageException("--nodes " + nodes + " contradicts --cluster " + cluster);
            }
            return n;
        }
        String[] seeds = c.split(",");
        for (String s : seeds) {
            hostPort(s, "--cluster");
        }
        int n = nodes != null ? nodes : seeds.length;
        if (n < 1 || n > 256) {
            throw new UsageException("--nodes must be in 1..256, got " + n);
        }
        return n;
    }

    static String[] hostPort(String text, String option) {
        String t = text.trim();
        int i = t.lastIndexOf(':');
        if (i <= 0 || i == t.length() - 1) {
            throw new UsageException(option + " needs HOST:PORT, got '" + text + "'");
        }
        try {
            int p = Integer.parseInt(t.substring(i + 1));
            if (p < 1 || p > 65535) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": bad port in '" + text + "' (1..65535)");
        }
        return new String[] {t.substring(0, i), t.substring(i + 1)};
    }
}
