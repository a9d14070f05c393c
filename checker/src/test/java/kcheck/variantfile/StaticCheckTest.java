package kcheck.variantfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kcheck.model.Models;

/**
 * The compile-time guard: a variant file that calls what a kernel function has no business
 * calling is refused before anything runs, with one line naming file, line and method.
 */
class StaticCheckTest {

    /** A cpudl variant whose cpudl_set() runs {@code lines} (the first is line 7) before the v4.9 code. */
    private static String source(List<String> lines) {
        StringBuilder b = new StringBuilder("""
                import kcheck.model.cpudl.Cpudl;
                import kcheck.model.cpudl.CpudlV49;

                public class Probe1 extends CpudlV49 {
                    @Override
                    public void set(Cpudl cp, int cpu, long dl) {
                """);
        lines.forEach(l -> b.append("        ").append(l).append('\n'));
        return b.append("        super.set(cp, cpu, dl);\n    }\n}\n").toString();
    }

    /** Each statement (line 7 + its index), and the start of the refusal it must get. */
    private static final Map<String, String> REFUSED = new LinkedHashMap<>();

    static {
        REFUSED.put("System.exit(0);", "calls System.exit, which a variant may not do (a variant is one kernel function: it may not end the JVM)");
        REFUSED.put("Runtime.getRuntime().halt(0);", "calls Runtime.halt, which");
        REFUSED.put("try { Runtime.getRuntime().exec(\"true\"); } catch (java.io.IOException e) { }", "calls Runtime.exec, which a variant "
                + "may not do (a variant may not start processes)");
        REFUSED.put("new ProcessBuilder(\"true\");", "calls new ProcessBuilder, which");
        REFUSED.put("new Thread(() -> { }).start();", "calls new Thread, which a variant may not do (a variant runs on kcheck's threads only");
        REFUSED.put("new Thread() { }.start();", "calls new ");
        REFUSED.put("java.util.concurrent.Executors.newFixedThreadPool(2);", "calls Executors.newFixedThreadPool, which");
        REFUSED.put("java.util.List.of(1).parallelStream().count();", "calls Collection.parallelStream, which");
        REFUSED.put("java.util.stream.IntStream.range(0, 2).parallel().sum();", "calls IntStream.parallel, which");
        REFUSED.put("try { Class.forName(\"java.lang.String\"); } catch (ClassNotFoundException e) { }", "calls Class.forName, which a "
                + "variant may not do (a variant may not use reflection or load classes)");
        REFUSED.put("try { String.class.getDeclaredField(\"value\").setAccessible(true); } catch (Exception e) { }",
                "calls Class.getDeclaredField, which");
        REFUSED.put("java.lang.invoke.MethodHandles.lookup();", "calls MethodHandles.lookup, which");
        REFUSED.put("System.setOut(System.err);", "calls System.setOut, which a variant may not do (a variant may not redirect the standard streams)");
        REFUSED.put("System.setProperty(\"a\", \"b\");", "calls System.setProperty, which");
        REFUSED.put("try { java.nio.file.Files.writeString(java.nio.file.Path.of(\"x\"), \"y\"); } catch (java.io.IOException e) { }",
                "calls Files.writeString, which a variant may not do (a variant may not read or write files or use the network)");
        REFUSED.put("new java.io.File(\"x\").delete();", "calls new File, which");
        REFUSED.put("kcheck.cli.Main.main(new String[0]);", "calls Main.main, which a variant may not do (a variant may use kcheck.model only");
        REFUSED.put("java.util.function.IntConsumer x = System::exit;", "calls System.exit, which");
    }

    @Test
    void callsThatEndTheJvmStartProcessesOrThreadsReflectOrDoIoAreRefusedNamingTheLineAndMethod(@TempDir Path dir) throws Exception {
        List<String> lines = new ArrayList<>(REFUSED.keySet());
        Path f = dir.resolve("Probe1.java");
        List<StaticCheck.Finding> found = InMemoryCompiler.findings(f, source(lines), Models.class, VariantFile.class);
        for (int i = 0; i < lines.size(); i++) {
            long line = 7 + i;
            String msg = found.stream().filter(x -> x.line() == line).findFirst().map(x -> x.message(f.toString()))
                    .orElse("nothing refused on line " + line);
            assertThat(msg).as(lines.get(i)).startsWith(f + ":" + line + ": in Probe1.set: " + REFUSED.get(lines.get(i)));
        }
    }

    @Test
    void loadingSuchAFileIsOneLineNamingTheFirstCallAndCountingTheRest(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("Probe1.java");
        Files.writeString(f, source(List.of("int ok = cpu + 1;", "System.exit(1); System.exit(2);",
                "class T extends Thread { @Override public void start() { } }", "new T().start();")));
        VariantFileException e = catchThrowableOfType(() -> VariantFile.load(f, Models.get("cpudl")), VariantFileException.class);
        assertThat(e.getMessage()).isEqualTo(f + ":8: in Probe1.set: calls System.exit, which a variant may not do (a variant is one "
                + "kernel function: it may not end the JVM) (and 4 more calls a variant may not make)");
        assertThat(e.frame()).isEqualTo(new VariantFile.Frame(f.toString(), 8, "Probe1.set"));
    }

    @Test
    void aFieldOfTheVariantWrittenBetweenCallsIsRefusedButConstructionAndTheModelsStatePass(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("Counter.java");
        Files.writeString(f, """
                import kcheck.model.cpudl.Cpudl;
                import kcheck.model.cpudl.CpudlV49;

                public class Counter extends CpudlV49 {
                    static int calls;
                    private long last = 1;
                    { last = 2; }

                    public Counter() {
                        last = 3;
                    }

                    @Override
                    public void set(Cpudl cp, int cpu, long dl) {
                        cp.size += 0;
                        calls++;
                        super.set(cp, cpu, dl);
                    }
                }
                """);
        List<StaticCheck.Finding> found = InMemoryCompiler.findings(f, Files.readString(f), Models.class, VariantFile.class);
        assertThat(found).hasSize(1);
        assertThat(found.get(0).message(f.toString())).isEqualTo(f + ":16: in Counter.set: writes the field Counter.calls, which a "
                + "variant may not do (a step may depend on the model's state only: a field of the variant written between calls is "
                + "state the model does not see, and makes the search unsound)");
    }

    @Test
    void ordinaryKernelCodeAndTheModelsApiPass(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("Probe1.java");
        Files.writeString(f, source(List.of("long x = Long.MIN_VALUE + dl; int[] a = new int[4]; java.util.Arrays.sort(a);",
                "StringBuilder b = new StringBuilder(); b.append(cpu); Math.max(1, 2); Thread.onSpinWait();",
                "java.util.List<Integer> l = new java.util.ArrayList<>(); l.stream().map(i -> i + 1).count();",
                "Object o = new Object(); o.hashCode(); o.getClass(); Integer.toHexString(cpu); cp.dl(0);")));
        assertThatCode(() -> VariantFile.load(f, Models.get("cpudl"))).doesNotThrowAnyException();
    }
}
