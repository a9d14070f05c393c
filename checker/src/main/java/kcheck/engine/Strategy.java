package kcheck.engine;

/** Search order. The model never knows which one explores it. */
public enum Strategy {
    /** Breadth-first: exhaustive, shortest counterexamples and metric witnesses. The default. */
    BFS,
    /** Depth-first: exhaustive, memory for the visited set plus one path. */
    DFS,
    /** Seeded random walks: finds violations beyond exhaustive reach, never proves HOLDS. */
    RANDOM
}
