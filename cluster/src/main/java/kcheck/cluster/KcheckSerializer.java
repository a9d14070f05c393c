package kcheck.cluster;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/** Binary serializer of {@link Msg}: no Java serialization, batches as raw longs. */
public final class KcheckSerializer extends SerializerWithStringManifest {
    private final ExtendedActorSystem system;
    private volatile ActorRefResolver resolver;

    public KcheckSerializer(ExtendedActorSystem system) {
        this.system = system;
    }

    private ActorRefResolver resolver() {
        ActorRefResolver r = resolver;
        if (r == null) {
            r = resolver = ActorRefResolver.get(Adapter.toTyped(system));
        }
        return r;
    }

    @Override
    public int identifier() {
        return 0x6b63686b;
    }

    @Override
    public String manifest(Object o) {
        String m = o instanceof Msg.Start ? "S" : o instanceof Msg.RunLevel ? "R" : o instanceof Msg.Batch ? "B"
                : o instanceof Msg.Ack ? "A" : o instanceof Msg.EndOfLevel ? "E" : o instanceof Msg.Summarize ? "M"
                : o instanceof Msg.LinkQuery ? "Q" : o instanceof Msg.Stop ? "X" : o instanceof Msg.Started ? "s"
                : o instanceof Msg.LevelDone ? "l" : o instanceof Msg.Summary ? "m" : o instanceof Msg.LinkReply ? "q" : null;
        if (m == null) {
            throw new IllegalArgumentException("not a kcheck message: " + o.getClass());
        }
        return m;
    }

    /** A growable little writer. */
    private static final class Out {
        ByteBuffer b = ByteBuffer.allocate(256);

        void ensure(int n) {
            if (b.remaining() < n) {
                ByteBuffer nb = ByteBuffer.allocate(Math.max(b.capacity() * 2, b.position() + n));
                b.flip();
                nb.put(b);
                b = nb;
            }
        }

        Out i(int v) {
            ensure(4);
            b.putInt(v);
            return this;
        }

        Out l(long v) {
            ensure(8);
            b.putLong(v);
            return this;
        }

        Out bytes(byte[] v) {
            i(v.length);
            ensure(v.length);
            b.put(v);
            return this;
        }

        Out s(String v) {
            return bytes(v.getBytes(StandardCharsets.UTF_8));
        }

        byte[] done() {
            byte[] a = new byte[b.position()];
            b.flip();
            b.get(a);
            return a;
        }
    }

    private String ref(ActorRef<?> r) {
        return resolver().toSerializationFormat(r);
    }

    private <T> ActorRef<T> ref(String s) {
        return resolver().resolveActorRef(s);
    }

    @Override
    public byte[] toBinary(Object o) {
        if (o instanceof Msg.Batch b) {
            ByteBuffer buf = ByteBuffer.allocate(8 + b.data().length * 8);
            buf.putInt(b.from()).putInt(b.data().length);
            buf.asLongBuffer().put(b.data());
            return buf.array();
        }
        Out out = new Out();
        if (o instanceof Msg.Start s) {
            out.i(s.index()).i(s.peers().size());
            for (ActorRef<Msg.ToPartition> p : s.peers()) {
                out.s(ref(p));
            }
            out.bytes(s.spec()).s(ref(s.replyTo()));
        } else if (o instanceof Msg.RunLevel s) {
            out.i(s.depth()).s(ref(s.replyTo()));
        } else if (o instanceof Msg.Ack s) {
            out.i(s.from());
        } else if (o instanceof Msg.EndOfLevel s) {
            out.i(s.from()).i(s.depth()).l(s.batches());
        } else if (o instanceof Msg.Summarize s) {
            out.s(ref(s.replyTo()));
        } else if (o instanceof Msg.LinkQuery s) {
            out.l(s.id()).s(ref(s.replyTo()));
        } else if (o instanceof Msg.Stop) {
            out.i(0);
        } else if (o instanceof Msg.Started s) {
            out.i(s.index()).l(s.size()).s(s.error() == null ? "" : s.error());
        } else if (o instanceof Msg.LevelDone s) {
            out.i(s.index()).l(s.size()).s(s.error() == null ? "" : s.error());
        } else if (o instanceof Msg.Summary s) {
            out.i(s.index()).bytes(s.bytes());
        } else if (o instanceof Msg.LinkReply s) {
            out.l(s.parent()).i(s.ordinal());
        } else {
            throw new IllegalArgumentException("not a kcheck message: " + o.getClass());
        }
        return out.done();
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        return switch (manifest) {
            case "B" -> {
                int from = in.getInt();
                long[] data = new long[in.getInt()];
                in.asLongBuffer().get(data);
                yield new Msg.Batch(from, data);
            }
            case "S" -> {
                int index = in.getInt();
                int n = in.getInt();
                List<ActorRef<Msg.ToPartition>> peers = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    peers.add(ref(str(in)));
                }
                byte[] spec = arr(in);
                yield new Msg.Start(index, peers, spec, ref(str(in)));
            }
            case "R" -> new Msg.RunLevel(in.getInt(), ref(str(in)));
            case "A" -> new Msg.Ack(in.getInt());
            case "E" -> new Msg.EndOfLevel(in.getInt(), in.getInt(), in.getLong());
            case "M" -> new Msg.Summarize(ref(str(in)));
            case "Q" -> new Msg.LinkQuery(in.getLong(), ref(str(in)));
            case "X" -> new Msg.Stop();
            case "s" -> new Msg.Started(in.getInt(), in.getLong(), emptyToNull(str(in)));
            case "l" -> new Msg.LevelDone(in.getInt(), in.getLong(), emptyToNull(str(in)));
            case "m" -> new Msg.Summary(in.getInt(), arr(in));
            case "q" -> new Msg.LinkReply(in.getLong(), in.getInt());
            default -> throw new IllegalArgumentException("unknown kcheck manifest " + manifest);
        };
    }

    private static String emptyToNull(String s) {
        return s.isEmpty() ? null : s;
    }

    private static byte[] arr(ByteBuffer in) {
        byte[] a = new byte[in.getInt()];
        in.get(a);
        return a;
    }

    private static String str(ByteBuffer in) {
        return new String(arr(in), StandardCharsets.UTF_8);
    }
}
