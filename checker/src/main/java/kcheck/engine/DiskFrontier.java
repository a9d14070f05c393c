package kcheck.engine;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * One BFS level of the disk search, as sequential files: records of (id, packed state), written
 * by each worker to a file of its own in chunks of {@value #RECORDS} records, read back chunk by
 * chunk by whichever worker claims the chunk. The chunk list (file, offset, records, bytes) is
 * what a checkpoint keeps; appends after it are cut off on resume.
 *
 * <p>A chunk is stored compressed: its bytes are regrouped by position (byte b of field f of
 * every record, then the next byte: the shuffle of HDF5 and Blosc, which puts the bytes that a
 * level's states share next to each other) and deflated at the fastest level. On rq-lock with 6
 * CPUs that makes a 32-byte record about 3 bytes (raw deflate: about 8), which is what lets the
 * widest levels (hundreds of millions of states) fit beside the fingerprint runs on one disk.
 */
final class DiskFrontier {
    static final int RECORDS = 4096;

    private final Path dir;
    private final String prefix;
    private final int rec;
    private final List<String> files = new ArrayList<>();
    private final List<long[]> chunks = new ArrayList<>();
    private long size;
    private long diskBytes;

    DiskFrontier(Path dir, String prefix, int width) {
        this.dir = dir;
        this.prefix = prefix;
        this.rec = width + 1;
    }

    /** Records (states) in this level, dead ones included. */
    synchronized long size() {
        return size;
    }

    synchronized int chunks() {
        return chunks.size();
    }

    synchronized long[] chunk(int k) {
        return chunks.get(k);
    }

    /** A writer appending to a new file of this level. */
    synchronized Writer writer() {
        String name = prefix + "-" + files.size() + ".q";
        files.add(name);
        return new Writer(files.size() - 1, dir.resolve(name));
    }

    private synchronized void added(int file, long offset, int n, int packed) {
        chunks.add(new long[] {file, offset, n, packed});
        size += n;
        diskBytes += packed;
    }

    /** Byte b of long f of record r goes to {@code (f * 8 + b) * n + r}. */
    private static void shuffle(long[] buf, int n, int rec, byte[] out) {
        for (int f = 0; f < rec; f++) {
            for (int b = 0; b < 8; b++) {
                int base = (f * 8 + b) * n;
                int shift = 8 * b;
                for (int r = 0, i = f; r < n; r++, i += rec) {
                    out[base + r] = (byte) (buf[i] >>> shift);
                }
            }
        }
    }

    private static void unshuffle(byte[] in, int n, int rec, long[] buf) {
        java.util.Arrays.fill(buf, 0, n * rec, 0L);
        for (int f = 0; f < rec; f++) {
            for (int b = 0; b < 8; b++) {
                int base = (f * 8 + b) * n;
                int shift = 8 * b;
                for (int r = 0, i = f; r < n; r++, i += rec) {
                    buf[i] |= (in[base + r] & 0xffL) << shift;
                }
            }
        }
    }

    /** Appends records; {@link #flush} writes the partial chunk. */
    final class Writer implements AutoCloseable {
        private final int file;
        private final FileChannel ch;
        private final long[] buf = new long[RECORDS * rec];
        private final byte[] shuffled = new byte[RECORDS * rec * 8];
        private byte[] packed = new byte[RECORDS * rec * 8 + 1024];
        private final Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
        private int n;
        private long pos;
        private boolean closed;

        private Writer(int file, Path path) {
            this.file = file;
            try {
                this.ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void add(long id, long[] s) {
            int off = n * rec;
            buf[off] = id;
            System.arraycopy(s, 0, buf, off + 1, rec - 1);
            if (++n == RECORDS) {
                flush();
            }
        }

        void flush() {
            if (n == 0) {
                return;
            }
            int raw = n * rec * 8;
            shuffle(buf, n, rec, shuffled);
            deflater.reset();
            deflater.setInput(shuffled, 0, raw);
            deflater.finish();
            int len = 0;
            while (!deflater.finished()) {
                if (len == packed.length) {
                    packed = java.util.Arrays.copyOf(packed, packed.length * 2);
                }
                len += deflater.deflate(packed, len, packed.length - len);
            }
            try {
                kcheck.engine.store.FileIo.write(ch, ByteBuffer.wrap(packed, 0, len), pos);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            added(file, pos, n, len);
            pos += len;
            n = 0;
        }

        /** Flushes and forces the file to disk. */
        void sync() {
            if (closed) {
                return;
            }
            flush();
            try {
                ch.force(false);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            flush();
            closed = true;
            deflater.end();
            try {
                ch.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A reader of chunks (one per worker: it keeps its buffer). */
    final class Reader implements AutoCloseable {
        private final FileChannel[] chs;
        private ByteBuffer packed = ByteBuffer.allocate(RECORDS * rec * 8 + 1024);
        private final byte[] shuffled = new byte[RECORDS * rec * 8];
        private final Inflater inflater = new Inflater(true);
        final long[] buf = new long[RECORDS * rec];

        Reader() {
            synchronized (DiskFrontier.this) {
                chs = new FileChannel[files.size()];
            }
        }

        /** Reads chunk {@code k} into {@link #buf}; returns its number of records. */
        int read(int k) {
            long[] c = chunk(k);
            int f = (int) c[0];
            int n = (int) c[2];
            int len = (int) c[3];
            try {
                if (chs[f] == null) {
                    String name;
                    synchronized (DiskFrontier.this) {
                        name = files.get(f);
                    }
                    chs[f] = FileChannel.open(dir.resolve(name), StandardOpenOption.READ);
                }
                if (packed.capacity() < len) {
                    packed = ByteBuffer.allocate(len);
                }
                packed.clear();
                packed.limit(len);
                kcheck.engine.store.FileIo.readFully(chs[f], packed, c[1]);
                int raw = n * rec * 8;
                inflater.reset();
                inflater.setInput(packed.array(), 0, len);
                int got = 0;
                while (got < raw && !inflater.finished()) {
                    int m = inflater.inflate(shuffled, got, raw - got);
                    if (m == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        break;
                    }
                    got += m;
                }
                if (got != raw) {
                    throw new IOException("level file " + files.get(f) + " is damaged: chunk at byte " + c[1] + " inflates to " + got
                            + " of " + raw + " bytes");
                }
                unshuffle(shuffled, n, rec, buf);
            } catch (DataFormatException e) {
                throw new UncheckedIOException(new IOException("level file " + files.get(f) + " is damaged: " + e.getMessage()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return n;
        }

        @Override
        public void close() {
            inflater.end();
            for (FileChannel c : chs) {
                try {
                    if (c != null) {
                        c.close();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    int recordLongs() {
        return rec;
    }

    /** Bytes on disk (compressed). */
    synchronized long bytes() {
        return diskBytes;
    }

    synchronized List<Path> paths() {
        List<Path> out = new ArrayList<>();
        for (String f : files) {
            out.add(dir.resolve(f));
        }
        return out;
    }

    /** The chunk list, for a checkpoint. */
    synchronized void write(DataOutputStream out) throws IOException {
        out.writeUTF(prefix);
        out.writeInt(files.size());
        for (String f : files) {
            out.writeUTF(f);
        }
        out.writeInt(chunks.size());
        for (long[] c : chunks) {
            out.writeInt((int) c[0]);
            out.writeLong(c[1]);
            out.writeInt((int) c[2]);
            out.writeInt((int) c[3]);
        }
    }

    /** Reads a chunk list written by {@link #write}, cutting each file back to its last chunk. */
    static DiskFrontier read(DataInputStream in, Path dir, int width) throws IOException {
        DiskFrontier f = new DiskFrontier(dir, in.readUTF(), width);
        int nf = in.readInt();
        for (int i = 0; i < nf; i++) {
            f.files.add(in.readUTF());
        }
        long[] ends = new long[nf];
        int nc = in.readInt();
        for (int i = 0; i < nc; i++) {
            long[] c = {in.readInt(), in.readLong(), in.readInt(), in.readInt()};
            f.chunks.add(c);
            f.size += c[2];
            f.diskBytes += c[3];
            ends[(int) c[0]] = Math.max(ends[(int) c[0]], c[1] + c[3]);
        }
        for (int i = 0; i < nf; i++) {
            Path p = dir.resolve(f.files.get(i));
            if (!Files.exists(p)) {
                if (ends[i] > 0) {
                    throw new IOException("checkpoint file " + p + " is missing");
                }
                continue;
            }
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
                ch.truncate(ends[i]);
            }
        }
        return f;
    }
}
