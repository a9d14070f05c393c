package kcheck.engine.store;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Trace links streamed to one sequential file: the disk search's state ids and, for each, its
 * parent's id and the step's ordinal. Each worker takes ids in blocks of {@value #BLOCK}; a full
 * block is encoded (the parents as variable-length differences, which are small because a
 * worker's parents come from one stretch of the level; the ordinals as variable-length numbers:
 * about 2 to 3 bytes a state) and appended to the file. A RAM index gives each block's offset
 * (8 bytes per 4096 states), so {@link #parent} reads one block.
 */
public final class DiskLinks implements TraceLinks, AutoCloseable {
    static final int BLOCK = 4096;
    static final int BLOCK_BITS = 12;

    private final FileChannel ch;
    private final AtomicLong end = new AtomicLong();
    private final AtomicLong nextBlock = new AtomicLong();
    private long[] index = new long[1024];
    private final Object indexLock = new Object();

    private long cachedBlock = -1;
    private long[] cachedParents = new long[BLOCK];
    private int[] cachedOrdinals = new int[BLOCK];
    private int cachedCount;

    public DiskLinks(Path file, boolean resume) throws IOException {
        ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        if (!resume) {
            ch.truncate(0);
        }
        Arrays.fill(index, -1);
    }

    /** One worker's writer: hands out ids and buffers their links. */
    public final class Writer implements IdSource {
        private long block = -1;
        private int n;
        private final long[] parents = new long[BLOCK];
        private final int[] ordinals = new int[BLOCK];
        private byte[] buf = new byte[BLOCK * 16];

        /** A fresh id for a state reached from {@code parent} by its successor number {@code ordinal}. */
        @Override
        public long add(long parent, int ordinal) {
            if (block < 0 || n == BLOCK) {
                close();
                block = nextBlock.getAndIncrement();
            }
            parents[n] = parent;
            ordinals[n] = ordinal;
            return (block << BLOCK_BITS) + n++;
        }

        /** Writes the current block (full or not); the next id starts a new block. */
        public void close() {
            if (block < 0) {
                return;
            }
            if (n > 0) {
                int len = encode();
                long at = end.getAndAdd(len);
                try {
                    KeyRun.write(ch, ByteBuffer.wrap(buf, 0, len), at);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                setIndex(block, at);
            }
            block = -1;
            n = 0;
        }

        private int encode() {
            int need = 5 + n * 15;
            if (buf.length < need) {
                buf = new byte[need];
            }
            int p = putVar(buf, 0, n);
            long prev = 0;
            for (int i = 0; i < n; i++) {
                long d = (parents[i] + 1) - prev;
                prev = parents[i] + 1;
                p = putVar(buf, p, (d << 1) ^ (d >> 63));
                p = putVar(buf, p, ordinals[i]);
            }
            return p;
        }
    }

    /** The block the next writer will take: ids from {@code nextBlock() << 12} on are not handed out yet. */
    public long nextBlock() {
        return nextBlock.get();
    }

    public Writer writer() {
        return new Writer();
    }

    private void setIndex(long block, long at) {
        synchronized (indexLock) {
            if (block >= index.length) {
                int old = index.length;
                index = Arrays.copyOf(index, (int) Math.max(block + 1, old * 2L));
                Arrays.fill(index, old, index.length, -1);
            }
            index[(int) block] = at;
        }
    }

    static int putVar(byte[] b, int p, long v) {
        while ((v & ~0x7FL) != 0) {
            b[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        return p;
    }

    private static long getVar(ByteBuffer b) {
        long v = 0;
        int shift = 0;
        while (true) {
            int x = b.get() & 0xFF;
            v |= (long) (x & 0x7F) << shift;
            if (x < 0x80) {
                return v;
            }
            shift += 7;
        }
    }

    private synchronized void load(long block) {
        if (block == cachedBlock) {
            return;
        }
        long at;
        synchronized (indexLock) {
            at = block < index.length ? index[(int) block] : -1;
        }
        if (at < 0) {
            throw new IllegalStateException("no trace links stored for block " + block);
        }
        try {
            int len = (int) Math.min(5 + BLOCK * 15L, ch.size() - at);
            ByteBuffer b = ByteBuffer.allocate(len);
            long p = at;
            while (b.hasRemaining()) {
                int r = ch.read(b, p);
                if (r < 0) {
                    break;
                }
                p += r;
            }
            b.flip();
            int n = (int) getVar(b);
            long prev = 0;
            for (int i = 0; i < n; i++) {
                long z = getVar(b);
                long d = (z >>> 1) ^ -(z & 1);
                prev += d;
                cachedParents[i] = prev - 1;
                cachedOrdinals[i] = (int) getVar(b);
            }
            cachedCount = n;
            cachedBlock = block;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public synchronized long parent(long id) {
        load(id >>> BLOCK_BITS);
        return cachedParents[checked(id)];
    }

    @Override
    public synchronized int ordinal(long id) {
        load(id >>> BLOCK_BITS);
        return cachedOrdinals[checked(id)];
    }

    private int checked(long id) {
        int i = (int) (id & (BLOCK - 1));
        if (i >= cachedCount) {
            throw new IllegalStateException("no trace link stored for state " + id);
        }
        return i;
    }

    /** Bytes written so far. */
    public long bytes() {
        return end.get();
    }

    /** Forces the file to disk and writes the index and counters (a checkpoint). */
    public void write(DataOutputStream out) throws IOException {
        ch.force(false);
        out.writeLong(end.get());
        out.writeLong(nextBlock.get());
        synchronized (indexLock) {
            int n = index.length;
            while (n > 0 && index[n - 1] < 0) {
                n--;
            }
            out.writeInt(n);
            for (int i = 0; i < n; i++) {
                out.writeLong(index[i]);
            }
        }
    }

    /** Restores what {@link #write} wrote: the file is cut back to the checkpoint's length. */
    public void read(DataInputStream in) throws IOException {
        long e = in.readLong();
        end.set(e);
        nextBlock.set(in.readLong());
        int n = in.readInt();
        synchronized (indexLock) {
            index = new long[Math.max(1024, n)];
            Arrays.fill(index, -1);
            for (int i = 0; i < n; i++) {
                index[i] = in.readLong();
            }
        }
        ch.truncate(e);
        cachedBlock = -1;
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
