package kcheck.engine.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A sorted run of state keys on disk ({@link CompactStore#key}): what the disk search moves out of
 * RAM when its table is full, as TLC's disk fingerprint set does. Keys ascend (signed order);
 * blocks of {@value #BLOCK} keys hold the first key in full and the gaps Rice-coded (a gap of
 * about 2^64/n costs log2(2^64/n) + 2 bits: 4.3 bytes a key for two billion keys, against 8
 * plain). A trailer indexes the blocks by their first key, so a reader looking up ascending keys
 * reads only the blocks that can hold them.
 */
public final class KeyRun {
    static final int BLOCK = 4096;
    private static final long MAGIC = 0x6b636865636b5255L;

    private KeyRun() {
    }

    /**
     * Writes a run: call {@link #add} with ascending keys (repeats are dropped), then {@link #close}.
     * The file is not forced to disk here: a checkpoint that refers to it does that ({@link FileIo#force}).
     */
    public static final class Writer implements AutoCloseable, CompactStore.KeySink {
        private final FileChannel ch;
        private final long[] buf = new long[BLOCK];
        private int n;
        private long count;
        private long pos;
        private long last;
        private boolean any;
        private long[] firsts = new long[64];
        private long[] offsets = new long[64];
        private int blocks;
        private byte[] out = new byte[BLOCK * 10 + 64];

        public Writer(Path file) throws IOException {
            ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }

        @Override
        public void key(long k) throws IOException {
            add(k);
        }

        public void add(long k) throws IOException {
            if (any) {
                if (k == last) {
                    return;
                }
                if (k < last) {
                    throw new IllegalStateException("keys out of order");
                }
            }
            any = true;
            last = k;
            buf[n++] = k;
            count++;
            if (n == BLOCK) {
                flush();
            }
        }

        private void flush() throws IOException {
            if (n == 0) {
                return;
            }
            if (blocks == firsts.length) {
                firsts = java.util.Arrays.copyOf(firsts, blocks * 2);
                offsets = java.util.Arrays.copyOf(offsets, blocks * 2);
            }
            firsts[blocks] = buf[0];
            offsets[blocks] = pos;
            blocks++;
            int k = riceParameter(buf, n);
            BitWriter w = new BitWriter(out);
            for (int i = 1; i < n; i++) {
                w.rice(buf[i] - buf[i - 1], k);
            }
            out = w.bytes();
            int len = w.length();
            ByteBuffer b = ByteBuffer.allocate(8 + 4 + 1 + 4 + len);
            b.putLong(buf[0]).putInt(n).put((byte) k).putInt(len).put(out, 0, len).flip();
            pos += write(ch, b, pos);
            n = 0;
        }

        public long count() {
            return count;
        }

        @Override
        public void close() throws IOException {
            flush();
            ByteBuffer b = ByteBuffer.allocate(blocks * 16 + 8 + 4 + 8 + 8);
            long indexAt = pos;
            for (int i = 0; i < blocks; i++) {
                b.putLong(firsts[i]).putLong(offsets[i]);
            }
            b.putLong(count).putInt(blocks).putLong(indexAt).putLong(MAGIC).flip();
            write(ch, b, pos);
            ch.close();
        }
    }

    static int riceParameter(long[] keys, int n) {
        if (n < 2) {
            return 0;
        }
        long span = keys[n - 1] - keys[0];
        long avg = Long.divideUnsigned(span, n - 1);
        return avg <= 1 ? 0 : 63 - Long.numberOfLeadingZeros(avg);
    }

    static long write(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        return FileIo.write(ch, b, pos);
    }

    static void readFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        FileIo.readFully(ch, b, pos);
    }

    /** Looks up ascending keys in a run, reading only the blocks that may hold them. */
    public static final class Reader implements AutoCloseable {
        private final FileChannel ch;
        private final long[] firsts;
        private final long[] offsets;
        private final long indexAt;
        private final long count;
        private final long[] keys = new long[BLOCK];
        private int n;
        private int pos;
        private int block = -1;
        private byte[] in = new byte[0];

        public Reader(Path file) throws IOException {
            ch = FileChannel.open(file, StandardOpenOption.READ);
            long size = ch.size();
            ByteBuffer t = ByteBuffer.allocate(28);
            readFully(ch, t, size - 28);
            count = t.getLong();
            int blocks = t.getInt();
            indexAt = t.getLong();
            if (t.getLong() != MAGIC) {
                ch.close();
                throw new IOException(file + " is not a key run");
            }
            ByteBuffer ix = ByteBuffer.allocate(blocks * 16);
            readFully(ch, ix, indexAt);
            firsts = new long[blocks];
            offsets = new long[blocks];
            for (int i = 0; i < blocks; i++) {
                firsts[i] = ix.getLong();
                offsets[i] = ix.getLong();
            }
        }

        public long count() {
            return count;
        }

        /** True if {@code k} is in the run. Calls must come with non-decreasing keys. */
        public boolean contains(long k) throws IOException {
            if (firsts.length == 0 || k < firsts[0]) {
                return false;
            }
            if (block < 0 || (block + 1 < firsts.length && k >= firsts[block + 1])) {
                int b = java.util.Arrays.binarySearch(firsts, Math.max(0, block), firsts.length, k);
                b = b >= 0 ? b : -b - 2;
                load(b);
            }
            while (pos < n && keys[pos] < k) {
                pos++;
            }
            return pos < n && keys[pos] == k;
        }

        private int cursorBlock = -1;

        /** Steps through every key, ascending: true if there is one more ({@link #key}). Not mixed with {@link #contains}. */
        public boolean next() throws IOException {
            if (cursorBlock >= 0 && pos + 1 < n) {
                pos++;
                return true;
            }
            if (cursorBlock + 1 >= firsts.length) {
                return false;
            }
            cursorBlock++;
            load(cursorBlock);
            return n > 0;
        }

        /** The key {@link #next} stepped to. */
        public long key() {
            return keys[pos];
        }

        /**
         * Merges sorted runs into one (repeats dropped), so that a level's lookups read one file
         * instead of many. Returns the number of keys written.
         */
        public static long merge(java.util.List<Path> inputs, Path out) throws IOException {
            java.util.List<Reader> rs = new java.util.ArrayList<>();
            java.util.PriorityQueue<Reader> pq = new java.util.PriorityQueue<>((a, b) -> Long.compare(a.key(), b.key()));
            try (Writer w = new Writer(out)) {
                for (Path p : inputs) {
                    Reader r = new Reader(p);
                    rs.add(r);
                    if (r.next()) {
                        pq.add(r);
                    }
                }
                while (!pq.isEmpty()) {
                    Reader r = pq.poll();
                    w.add(r.key());
                    if (r.next()) {
                        pq.add(r);
                    }
                }
                return w.count();
            } finally {
                for (Reader r : rs) {
                    r.close();
                }
            }
        }

        /** Calls {@code out} with every key, ascending. */
        public void forEach(CompactStore.KeySink out) throws IOException {
            for (int b = 0; b < firsts.length; b++) {
                load(b);
                for (int i = 0; i < n; i++) {
                    out.key(keys[i]);
                }
            }
        }

        private void load(int b) throws IOException {
            long end = b + 1 < offsets.length ? offsets[b + 1] : indexAt;
            int len = (int) (end - offsets[b]);
            ByteBuffer bb = ByteBuffer.allocate(len);
            readFully(ch, bb, offsets[b]);
            long first = bb.getLong();
            n = bb.getInt();
            int k = bb.get();
            int bytes = bb.getInt();
            if (in.length < bytes) {
                in = new byte[bytes];
            }
            bb.get(in, 0, bytes);
            keys[0] = first;
            BitReader r = new BitReader(in);
            for (int i = 1; i < n; i++) {
                keys[i] = keys[i - 1] + r.rice(k);
            }
            block = b;
            pos = 0;
        }

        @Override
        public void close() throws IOException {
            ch.close();
        }
    }

    /** Rice codes into a growable byte array, most significant bit first. */
    static final class BitWriter {
        private byte[] a;
        private int len;
        private long acc;
        private int accBits;

        BitWriter(byte[] a) {
            this.a = a;
        }

        private void bits(long v, int n) {
            acc = (acc << n) | (v & ((1L << n) - 1));
            accBits += n;
            while (accBits >= 8) {
                if (len == a.length) {
                    a = java.util.Arrays.copyOf(a, a.length * 2 + 16);
                }
                a[len++] = (byte) (acc >>> (accBits - 8));
                accBits -= 8;
            }
        }

        void rice(long v, int k) {
            long q = v >>> k;
            while (q >= 32) {
                bits(0xFFFF_FFFFL, 32);
                q -= 32;
            }
            bits(((1L << q) - 1) << 1, (int) q + 1);
            if (k > 32) {
                bits(v >>> 32, k - 32);
                bits(v, 32);
            } else if (k > 0) {
                bits(v, k);
            }
        }

        byte[] bytes() {
            if (accBits > 0) {
                int pad = 8 - accBits;
                bits(0, pad);
            }
            return a;
        }

        int length() {
            return len;
        }
    }

    static final class BitReader {
        private final byte[] a;
        private int next;
        private long acc;
        private int accBits;

        BitReader(byte[] a) {
            this.a = a;
        }

        private void fill() {
            while (accBits <= 56) {
                long b = next < a.length ? a[next] & 0xFF : 0;
                next++;
                acc |= b << (56 - accBits);
                accBits += 8;
            }
        }

        private long bits(int n) {
            fill();
            long v = acc >>> (64 - n);
            acc <<= n;
            accBits -= n;
            return v;
        }

        long rice(int k) {
            long q = 0;
            while (true) {
                fill();
                int ones = Long.numberOfLeadingZeros(~acc);
                if (ones < accBits) {
                    q += ones;
                    acc = ones == 63 ? 0 : acc << (ones + 1);
                    accBits -= ones + 1;
                    break;
                }
                q += accBits;
                acc = 0;
                accBits = 0;
            }
            long r;
            if (k > 32) {
                r = (bits(k - 32) << 32) | bits(32);
            } else {
                r = k == 0 ? 0 : bits(k);
            }
            return (q << k) | r;
        }
    }
}
