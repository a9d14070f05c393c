package kcheck.cli;

import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import kcheck.model.EnvironmentInput;
import kcheck.model.ModelFactory;
import kcheck.model.Models;
import kcheck.model.ParamSpec;
import kcheck.model.PropertyInfo;
import kcheck.model.VariantInfo;
import kcheck.trace.TraceIO;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kcheck list}: the models, their variants, parameters and properties. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List models, variants, parameters and properties.")
final class ListCommand implements Callable<Integer> {

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (json) {
            ArrayNode arr = JsonNodeFactory.instance.arrayNode();
            for (ModelFactory f : Models.all()) {
                ObjectNode o = arr.addObject();
                o.put("name", f.name());
                o.put("title", f.title());
                if (f.variantContract() != null) {
                    o.put("variantContract", f.variantContract().type().getName());
                }
                ArrayNode vs = o.putArray("variants");
                for (VariantInfo v : f.variants()) {
                    vs.addObject().put("name", v.name()).put("description", v.description()).put("mutant", v.mutant());
                }
                ArrayNode ps = o.putArray("params");
                for (ParamSpec p : f.params()) {
                    ps.addObject().put("name", p.name()).put("default", p.defaultValue()).put("domain", p.domain())
                            .put("description", p.description());
                }
                ArrayNode pr = o.putArray("properties");
                for (PropertyInfo p : f.properties()) {
                    pr.addObject().put("id", p.id()).put("kind", p.kind().name().toLowerCase(java.util.Locale.ROOT))
                            .put("description", p.description()).put("optIn", p.optIn());
                }
                ArrayNode lim = o.putArray("limits");
                f.limits().forEach(lim::add);
                ArrayNode env = o.putArray("environment");
                for (EnvironmentInput e : f.environment()) {
                    env.addObject().put("input", e.input()).put("callSites", e.callSites()).put("treatment", e.treatment().label())
                            .put("how", e.how());
                }
            }
            ObjectNode doc = Json.document("list", "OK", ExitCodes.OK);
            doc.set("models", arr);
            System.out.println(TraceIO.mapper().writeValueAsString(doc));
            Session.documentPrinted = true;
            return 0;
        }
        for (ModelFactory f : Models.all()) {
            System.out.println(f.name() + ": " + f.title());
            System.out.println("  variants:");
            for (VariantInfo v : f.variants()) {
                System.out.printf("    %-22s %s%s%n", v.name(), v.mutant() ? "[seeded mutant] " : "", v.description());
            }
            System.out.println("  parameters:");
            for (ParamSpec p : f.params()) {
                System.out.printf("    %-22s %s (default %s; %s)%n", p.name(), p.description(), p.defaultValue(), p.domain());
            }
            System.out.println("  properties:");
            for (PropertyInfo p : f.properties()) {
                System.out.printf("    %-26s %-9s %s%s%n", p.id(), p.kind().name().toLowerCase(java.util.Locale.ROOT),
                        p.optIn() ? "[opt-in: checked only when named] " : "", p.description());
            }
            if (!f.environment().isEmpty()) {
                System.out.println("  environment (every input the ported code takes from outside the mechanism: a choice of the model,"
                        + " a parameter, or an assumption):");
                for (EnvironmentInput e : f.environment()) {
                    System.out.printf("    %-10s %s%n               at %s%n               %s%n", e.treatment().label(), e.input(),
                            e.callSites(), e.how());
                }
            }
            if (!f.limits().isEmpty()) {
                System.out.println("  limits (what the model assumes of a variant; a variant file that breaks one gets exit 2 naming its line):");
                for (String l : f.limits()) {
                    System.out.println("    - " + l);
                }
            }
            if (f.variantContract() != null) {
                System.out.println("  your own variant: implement " + f.variantContract().type().getName() + " (start with 'kcheck variant new "
                        + f.name() + " NAME', check with 'kcheck check " + f.name() + " --variant-file FILE.java')");
            }
            System.out.println();
        }
        return 0;
    }
}
