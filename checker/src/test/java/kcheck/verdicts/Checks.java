package kcheck.verdicts;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import kcheck.engine.Engine;
import kcheck.engine.Options;
import kcheck.engine.RunResult;
import kcheck.model.Model;
import kcheck.model.ModelFactory;
import kcheck.model.Models;

/** Runs a model instance from the catalogue, as the CLI would, for the verdict tests. */
final class Checks {
    private Checks() {
    }

    static Model model(String name, String variant, Map<String, String> params, String... properties) {
        ModelFactory f = Models.get(name);
        return f.create(variant, f.params(params), new LinkedHashSet<>(List.of(properties)));
    }

    static RunResult run(String name, String variant, Map<String, String> params, String... properties) {
        return Engine.check(model(name, variant, params, properties), Options.defaults().withWorkers(2));
    }

    static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
