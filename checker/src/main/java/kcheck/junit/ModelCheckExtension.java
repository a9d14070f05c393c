package kcheck.junit;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

import kcheck.cli.Instances;
import kcheck.engine.Durations;
import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.RunResult;
import kcheck.model.Model;
import kcheck.model.Models;
import kcheck.variantfile.VariantFile;

/** Runs the check a {@link ModelCheck} method describes (once per method) and injects its result. */
public final class ModelCheckExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ModelCheckExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
        Class<?> t = p.getParameter().getType();
        return t == RunResult.class || t == Model.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext c) {
        ModelCheck mc = c.getRequiredTestMethod().getAnnotation(ModelCheck.class);
        if (mc == null) {
            throw new ParameterResolutionException("@ModelCheck missing on " + c.getRequiredTestMethod());
        }
        RunResult r = c.getStore(NS).getOrComputeIfAbsent(c.getUniqueId(), k -> run(mc), RunResult.class);
        return p.getParameter().getType() == Model.class ? r.model() : r;
    }

    static RunResult run(ModelCheck mc) {
        Map<String, String> params = new LinkedHashMap<>();
        for (String kv : mc.params()) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new ParameterResolutionException("@ModelCheck params must be KEY=VALUE, got '" + kv + "'");
            }
            params.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        VariantFile vf = mc.variantFile().isEmpty() ? null : VariantFile.load(Path.of(mc.variantFile()), Models.get(mc.model()));
        Model m = Instances.create(mc.model(), mc.variant(), vf, mc.cpus() > 0 ? mc.cpus() : null, params, List.of(mc.properties()));
        Options o = Options.defaults().withWorkers(mc.workers() > 0 ? mc.workers() : Runtime.getRuntime().availableProcessors());
        if (mc.maxStates() > 0) {
            o = o.withMaxStates(mc.maxStates());
        }
        if (!mc.timeLimit().isEmpty()) {
            o = o.withTimeLimit(Durations.parse(mc.timeLimit()));
        }
        Options run = o;
        return vf == null ? Engine.check(m, run) : vf.guard(run.timeLimit(), () -> Engine.check(m, run));
    }
}
