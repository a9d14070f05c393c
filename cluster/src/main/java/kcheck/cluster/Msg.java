package kcheck.cluster;

import java.util.List;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * The messages of a kcheck cluster, all carried by {@link KcheckSerializer} (compact binary:
 * batches of states are arrays of longs).
 */
public interface Msg {

    /** What a partition node takes. */
    sealed interface ToPartition extends Msg permits Start, RunLevel, Batch, Ack, EndOfLevel, Summarize, LinkQuery, Stop {
    }

    /** Start a search: this node is partition {@code index} of {@code peers.size()}; {@code spec} names model and options. */
    record Start(int index, List<ActorRef<ToPartition>> peers, byte[] spec, ActorRef<Started> replyTo) implements ToPartition {
    }

    /** Expand level {@code depth}, take every batch of it, end it. */
    record RunLevel(int depth, ActorRef<LevelDone> replyTo) implements ToPartition {
    }

    /** States for this partition: records {@code [state words..., parent id, ordinal]}. */
    record Batch(int from, long[] data) implements ToPartition {
    }

    /** Partition {@code from} has stored one batch this node sent it (flow control). */
    record Ack(int from) implements ToPartition {
    }

    /** Partition {@code from} has expanded level {@code depth} and sent this node {@code batches} batches since the search began. */
    record EndOfLevel(int from, int depth, long batches) implements ToPartition {
    }

    record Summarize(ActorRef<Summary> replyTo) implements ToPartition {
    }

    record LinkQuery(long id, ActorRef<LinkReply> replyTo) implements ToPartition {
    }

    record Stop() implements ToPartition {
    }

    record Started(int index, long size, String error) implements Msg {
    }

    record LevelDone(int index, long size, String error) implements Msg {
    }

    record Summary(int index, byte[] bytes) implements Msg {
    }

    record LinkReply(long parent, int ordinal) implements Msg {
    }
}
