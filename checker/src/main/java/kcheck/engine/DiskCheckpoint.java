package kcheck.engine;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import kcheck.model.Property;

/**
 * Checkpoints of a {@link DiskBfs} ({@link Options.Disk#checkpoint}) and resuming from one. While
 * the workers are paused between chunks, the fingerprint table, the link index, the level files'
 * chunk lists, the key runs, the checks found so far and the counters are written next to the
 * files, and a manifest ({@code checkpoint.bin}) is renamed into place. A resumed search cuts
 * every file back to the manifest and continues from the chunk where the checkpoint was taken;
 * files retired after a checkpoint are deleted only once a later checkpoint no longer needs them.
 */
final class DiskCheckpoint {
    private static final long MAGIC = 0x6b63686b64626673L;
    /**
     * 2: level chunks are compressed (their byte length is in the chunk list); 3: whether the
     * grading is relied on; 4: the omission estimate's counters.
     */
    private static final int VERSION = 4;

    private final DiskBfs b;

    DiskCheckpoint(DiskBfs search) {
        this.b = search;
    }

    /** What a checkpoint must match to be resumed: the model, its variant, parameters, properties and the search options. */
    private String identity() {
        List<String> props = new ArrayList<>();
        for (Property p : b.model.properties()) {
            props.add(p.id());
        }
        return b.model.name() + " " + b.model.variant() + " " + b.model.params() + " " + props + " width " + b.w + " reductions "
                + b.options.reductions() + " partial-order " + b.options.partialOrder() + " max-depth " + b.options.maxDepth();
    }

    /**
     * Writes a checkpoint: all workers are paused between chunks; {@code cursor} chunks of the
     * current level are expanded, and their successors are in the next level's files.
     */
    void write(int cursor) throws IOException {
        long t0 = System.nanoTime();
        b.syncWorkers();
        b.gen++;
        String ramName = "ram-" + b.gen + ".keys";
        Path dir = b.dir;
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(dir.resolve(ramName)), 1 << 20))) {
            b.ram.write(out);
        }
        Path tmp = dir.resolve("checkpoint.tmp");
        kcheck.engine.store.FileIo.force(dir.resolve(ramName));
        b.keyRuns.force(b.synced);
        for (Path p : b.cur.paths()) {
            if (b.synced.add(p.getFileName().toString()) && Files.exists(p)) {
                kcheck.engine.store.FileIo.force(p);
            }
        }
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
            out.writeLong(MAGIC);
            out.writeInt(VERSION);
            out.writeUTF(identity());
            out.writeInt(b.gen);
            out.writeInt(b.depth);
            out.writeLong(b.states);
            out.writeLong(b.curLive);
            out.writeLong(b.totalTransitions());
            out.writeLong(b.totalAmple());
            out.writeDouble(b.seconds());
            out.writeLong(b.startBlock);
            out.writeInt(cursor);
            b.cur.write(out);
            out.writeLong(b.curBase);
            out.writeInt(b.curDead == null ? -1 : b.curDead.length);
            if (b.curDead != null) {
                for (long x : b.curDead) {
                    out.writeLong(x);
                }
            }
            out.writeBoolean(b.next != null);
            if (b.next != null) {
                b.next.write(out);
            }
            b.dlinks.write(out);
            b.keyRuns.write(out);
            out.writeUTF(ramName);
            out.writeInt(b.keyRuns.merges());
            out.writeBoolean(b.graded);
            b.omission.write(out);
            b.checks.write(out);
            out.writeLong(MAGIC);
        }
        kcheck.engine.store.FileIo.force(tmp);
        Files.move(tmp, dir.resolve("checkpoint.bin"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        if (b.ramFile != null) {
            DiskBfs.delete(dir.resolve(b.ramFile));
        }
        b.ramFile = ramName;
        for (Path p : b.retired) {
            DiskBfs.delete(p);
        }
        b.retired.clear();
        b.checkpointWritten(System.nanoTime() - t0);
    }

    /** Restores the search from the checkpoint in its directory, and deletes the files of the search that it does not need. */
    void resume() throws IOException {
        Path dir = b.dir;
        Path manifest = dir.resolve("checkpoint.bin");
        if (!Files.exists(manifest)) {
            throw new CheckpointException("no checkpoint in " + dir + " (checkpoint.bin is missing)");
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(manifest), 1 << 16))) {
            int version = in.readLong() == MAGIC ? in.readInt() : -1;
            if (version < 2 || version > VERSION) {
                throw new CheckpointException(manifest + " is not a kcheck checkpoint of this version");
            }
            String id = in.readUTF();
            if (!id.equals(identity())) {
                throw new CheckpointException("the checkpoint in " + dir + " is of another search: " + id + "; this one is "
                        + identity());
            }
            b.gen = in.readInt();
            b.depth = in.readInt();
            b.states = in.readLong();
            b.curLive = in.readLong();
            b.transitionsBefore = in.readLong();
            b.ampleBefore = in.readLong();
            b.secondsBefore = in.readDouble();
            b.startBlock = in.readLong();
            b.cursorStart = in.readInt();
            b.cur = DiskFrontier.read(in, dir, b.w);
            b.curBase = in.readLong();
            int words = in.readInt();
            if (words >= 0) {
                b.curDead = new long[words];
                for (int i = 0; i < words; i++) {
                    b.curDead[i] = in.readLong();
                }
            }
            if (in.readBoolean()) {
                b.next = DiskFrontier.read(in, dir, b.w);
            }
            b.dlinks.read(in);
            b.keyRuns.read(in);
            b.ramFile = in.readUTF();
            b.keyRuns.merges(in.readInt());
            if (version >= 3 && in.readBoolean()) {
                if (b.gradedRank < 0) {
                    throw new CheckpointException("the checkpoint in " + dir + " relies on the model's grading, which this search does not");
                }
                b.relyOnGrading();
            }
            if (version >= 4) {
                b.omission.read(in);
            } else {
                b.omission.beforePerLevel(b.transitionsBefore, b.states);
            }
            b.checks.read(in);
            if (in.readLong() != MAGIC) {
                throw new CheckpointException(manifest + " is truncated");
            }
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(dir.resolve(b.ramFile)), 1 << 20))) {
            b.ram.read(in);
        }
        Set<Path> keep = new HashSet<>();
        keep.add(manifest);
        keep.add(dir.resolve("links.bin"));
        keep.add(dir.resolve(b.ramFile));
        keep.addAll(b.cur.paths());
        if (b.next != null) {
            keep.addAll(b.next.paths());
        }
        keep.addAll(b.keyRuns.paths());
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                String n = p.getFileName().toString();
                boolean ours = n.endsWith(".q") || n.endsWith(".keys") || n.endsWith(".pairs") || n.equals("checkpoint.tmp");
                if (ours && !keep.contains(p)) {
                    DiskBfs.delete(p);
                }
            }
        }
    }
}
