package kcheck.engine;

import java.util.List;

import kcheck.model.Model;

/**
 * Everything one run found: the model instance, the search figures and one result per checked
 * property.
 */
public record RunResult(Model model, Stats stats, List<PropertyResult> properties) {

    /** The result for property {@code id}. */
    public PropertyResult property(String id) {
        return properties.stream().filter(p -> p.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no result for " + id));
    }

    /**
     * Search figures.
     *
     * @param bytesPerState   store bytes per distinct state (state words plus index slots at the final load)
     * @param linkBytesPerState trace-link bytes per state (parent id and step ordinal)
     * @param complete        the whole reachable state space was explored
     * @param limit           the limit that stopped the search, or "" if none
     * @param omission        probability that a state was omitted (fingerprint mode), else 0
     * @param ampleStates     states expanded with a partial-order ample set (then BFS traces may be
     *                        longer than a shortest one)
     * @param shortestRecheck the counterexamples were searched again without partial-order reduction
     * @param diskBytes       bytes the search kept on disk at the end ({@link StoreMode#DISK}: trace links, the
     *                        last levels, the fingerprint runs), else 0
     * @param analysisSeconds seconds of the cycle analysis after the search, per progress property it decided
     *                        or stopped in (in the order analysed); part of {@code seconds}; empty if none ran
     */
    public record Stats(Strategy strategy, StoreMode store, long states, long transitions, int depth, double seconds,
                        long storeBytes, double bytesPerState, double linkBytesPerState, int workers,
                        List<String> reductions, boolean complete, String limit, double omission, long seed,
                        long ampleStates, boolean shortestRecheck, long diskBytes,
                        java.util.Map<String, Double> analysisSeconds) {

        public Stats {
            analysisSeconds = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(analysisSeconds));
        }

        /**
         * True if this run's counterexamples are shortest ones: BFS without partial-order
         * reduction, or with it and the counterexamples searched again without it.
         */
        public boolean shortestTraces() {
            return strategy == Strategy.BFS && (ampleStates == 0 || shortestRecheck);
        }

        Stats withShortestRecheck() {
            return new Stats(strategy, store, states, transitions, depth, seconds, storeBytes, bytesPerState, linkBytesPerState,
                    workers, reductions, complete, limit, omission, seed, ampleStates, true, diskBytes, analysisSeconds);
        }

        /** Seconds of the cycle analysis after the search, all properties together. */
        public double analysisTotal() {
            return analysisSeconds.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        /** Seconds of the search itself: the run's less its cycle analysis. */
        public double searchSeconds() {
            return Math.max(0, seconds - analysisTotal());
        }

        public double statesPerSecond() {
            return seconds > 0 ? states / seconds : 0;
        }
    }
}
