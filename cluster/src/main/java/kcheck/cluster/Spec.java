package kcheck.cluster;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import kcheck.engine.Options;
import kcheck.engine.StoreMode;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.Property;

/** What a node needs to build the same model instance and search options: names, not code. */
final class Spec {
    private Spec() {
    }

    static byte[] encode(Model m, Options o) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(b)) {
            out.writeUTF(m.name());
            out.writeUTF(m.variant());
            Map<String, String> params = m.params().asMap();
            out.writeInt(params.size());
            for (Map.Entry<String, String> e : params.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeUTF(e.getValue());
            }
            out.writeInt(m.properties().size());
            for (Property p : m.properties()) {
                out.writeUTF(p.id());
            }
            out.writeUTF(o.store().name());
            out.writeLong(o.maxStates());
            out.writeLong(o.memoryBytes());
            out.writeBoolean(o.reductions());
            out.writeBoolean(o.partialOrder());
            out.writeInt(o.maxDepth());
            out.writeLong(o.timeLimit() == null ? -1 : o.timeLimit().toMillis());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    record Decoded(Model model, Options options) {
    }

    /** Builds the model and options; {@code memory} caps the memory budget at what this node has. */
    static Decoded decode(byte[] spec, long memory) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(spec))) {
            ModelFactory f = Models.get(in.readUTF());
            String variant = in.readUTF();
            Map<String, String> params = new LinkedHashMap<>();
            int np = in.readInt();
            for (int i = 0; i < np; i++) {
                params.put(in.readUTF(), in.readUTF());
            }
            Set<String> props = new LinkedHashSet<>();
            int nq = in.readInt();
            for (int i = 0; i < nq; i++) {
                props.add(in.readUTF());
            }
            Model m = f.create(variant, f.params(params), props);
            Options o = Options.defaults().withStore(StoreMode.valueOf(in.readUTF())).withMaxStates(in.readLong());
            o = o.withMemoryBytes(Math.min(in.readLong(), memory)).withReductions(in.readBoolean())
                    .withPartialOrder(in.readBoolean()).withMaxDepth(in.readInt());
            long t = in.readLong();
            return new Decoded(m, t < 0 ? o : o.withTimeLimit(Duration.ofMillis(t)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
