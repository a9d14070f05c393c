package kcheck.engine;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One BFS level of the disk search, as sequential files: records of (id, packed state), written
 * by each worker to a file of its own in chunks of {@value #RECORDS} records, read back chunk by
 * chunk by whichever worker claims the chunk. The chunk list (file, offset, records) is what a
 * checkpoint keeps; appends after it are cut off on resume.
 */
final class DiskFrontier {
    static final int RECORDS = 4096;

    private final Path dir;
    private final String prefix;
    private final int rec;
    private final List<String> files = new ArrayList<>();
    private final List<long[]> chunks = new ArrayList<>();
    private long size;

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

    private synchronized void added(int file, long offset, int n) {
        chunks.add(new long[] {file, offset, n});
        size += n;
    }

    /** Appends records; {@link #flush} writes the partial chunk. */
    final class Writer implements AutoCloseable {
        private final int file;
        private final FileChannel ch;
        private final long[] buf = new long[RECORDS * rec];
        private final ByteBuffer bytes = ByteBuffer.allocate(RECORDS * rec * 8).order(ByteOrder.LITTLE_ENDIAN);
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
            bytes.clear();
            bytes.asLongBuffer().put(buf, 0, n * rec);
            bytes.limit(n * rec * 8);
            try {
                kcheck.engine.store.FileIo.write(ch, bytes, pos);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            added(file, pos, n);
            pos += (long) n * rec * 8;
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
        private final ByteBuffer bytes = ByteBuffer.allocate(RECORDS * rec * 8).order(ByteOrder.LITTLE_ENDIAN);
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
            try {
                if (chs[f] == null) {
                    String name;
                    synchronized (DiskFrontier.this) {
                        name = files.get(f);
                    }
                    chs[f] = FileChannel.open(dir.resolve(name), StandardOpenOption.READ);
                }
                bytes.clear();
                bytes.limit(n * rec * 8);
                kcheck.engine.store.FileIo.readFully(chs[f], bytes, c[1]);
                bytes.asLongBuffer().get(buf, 0, n * rec);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return n;
        }

        @Override
        public void close() {
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

    /** Bytes on disk. */
    synchronized long bytes() {
        return size * rec * 8;
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
            long[] c = {in.readInt(), in.readLong(), in.readInt()};
            f.chunks.add(c);
            f.size += c[2];
            ends[(int) c[0]] = Math.max(ends[(int) c[0]], c[1] + c[2] * f.rec * 8);
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
