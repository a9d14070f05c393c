package kcheck.engine.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Positional reads and writes that do not stop short. */
public final class FileIo {
    private FileIo() {
    }

    /** Writes all of {@code b} at {@code pos}; returns the number of bytes written. */
    public static long write(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        int len = b.remaining();
        long p = pos;
        while (b.hasRemaining()) {
            p += ch.write(b, p);
        }
        return len;
    }

    /** Fills {@code b} from {@code pos}, then flips it for reading. */
    public static void readFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        long p = pos;
        while (b.hasRemaining()) {
            int r = ch.read(b, p);
            if (r < 0) {
                throw new IOException("unexpected end of file");
            }
            p += r;
        }
        b.flip();
    }

    /** Forces a file's contents to the disk. */
    public static void force(java.nio.file.Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p, java.nio.file.StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }
}
