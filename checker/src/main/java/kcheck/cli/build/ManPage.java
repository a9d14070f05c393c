package kcheck.cli.build;

import java.util.List;
import java.util.Locale;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * A troff man page (section 1) from picocli's model of one command: name, synopsis,
 * description, positional parameters, options, subcommands and the footer (exit status,
 * examples). The same model prints {@code --help}, so the two cannot drift apart; picocli-codegen's
 * ManPageGenerator writes the AsciiDoc form of the same pages next to these.
 */
public final class ManPage {
    private ManPage() {
    }

    /** The page of {@code spec}, e.g. kcheck-check(1) for {@code kcheck check}. */
    public static String troff(CommandSpec spec, String version) {
        String name = spec.qualifiedName("-");
        StringBuilder b = new StringBuilder();
        b.append(".TH \"").append(name.toUpperCase(Locale.ROOT)).append("\" \"1\" \"\" \"").append(esc(version))
                .append("\" \"kcheck manual\"\n");
        b.append(".SH NAME\n").append(esc(name)).append(" \\- ").append(esc(first(spec.usageMessage().description()))).append('\n');
        b.append(".SH SYNOPSIS\n.B ").append(esc(spec.qualifiedName(" "))).append('\n');
        StringBuilder syn = new StringBuilder();
        if (!spec.options().isEmpty()) {
            syn.append("[\\fIOPTIONS\\fR]");
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (p.hidden()) {
                continue;
            }
            String label = "\\fI" + esc(p.paramLabel()) + "\\fR" + (p.arity().max() > 1 ? "..." : "");
            syn.append(syn.length() == 0 ? "" : " ").append(p.arity().min() == 0 ? "[" + label + "]" : label);
        }
        if (!spec.subcommands().isEmpty()) {
            syn.append(syn.length() == 0 ? "" : " ").append("\\fICOMMAND\\fR");
        }
        b.append(syn).append('\n');
        b.append(".SH DESCRIPTION\n");
        for (String d : spec.usageMessage().description()) {
            b.append(para(d));
        }
        if (!spec.positionalParameters().isEmpty()) {
            b.append(".SH ARGUMENTS\n");
            for (PositionalParamSpec p : spec.positionalParameters()) {
                if (!p.hidden()) {
                    b.append(".TP\n\\fI").append(esc(p.paramLabel())).append("\\fR\n").append(esc(String.join(" ", p.description())))
                            .append('\n');
                }
            }
        }
        b.append(".SH OPTIONS\n");
        for (OptionSpec o : spec.options()) {
            if (o.hidden()) {
                continue;
            }
            b.append(".TP\n");
            StringBuilder names = new StringBuilder();
            for (String n : o.names()) {
                names.append(names.length() == 0 ? "" : ", ").append("\\fB").append(esc(n)).append("\\fR");
            }
            if (o.typeInfo().isBoolean() || o.arity().max() == 0) {
                b.append(names).append('\n');
            } else {
                b.append(names).append(" \\fI").append(esc(o.paramLabel())).append("\\fR\n");
            }
            b.append(esc(String.join(" ", o.description()))).append('\n');
        }
        if (!spec.subcommands().isEmpty()) {
            b.append(".SH COMMANDS\n");
            spec.subcommands().forEach((n, sub) -> {
                if (!sub.getCommandSpec().usageMessage().hidden() && n.equals(sub.getCommandName())) {
                    b.append(".TP\n\\fB").append(esc(n)).append("\\fR\n")
                            .append(esc(first(sub.getCommandSpec().usageMessage().description()))).append('\n')
                            .append("See \\fB").append(esc(sub.getCommandSpec().qualifiedName("-"))).append("\\fR(1).\n");
                }
            });
        }
        String[] footer = spec.usageMessage().footer();
        if (footer.length > 0) {
            b.append(".SH NOTES\n");
            for (String f : footer) {
                b.append(f.startsWith("  ") ? ".nf\n" + esc(f) + "\n.fi\n" : para(f));
            }
        }
        b.append(".SH SEE ALSO\n");
        CommandLine root = spec.root().commandLine();
        StringBuilder see = new StringBuilder();
        for (String n : List.copyOf(root.getSubcommands().keySet())) {
            see.append(see.length() == 0 ? "" : ", ").append("\\fBkcheck-").append(esc(n)).append("\\fR(1)");
        }
        b.append(spec.parent() == null ? see : "\\fBkcheck\\fR(1)").append('\n');
        return b.toString();
    }

    private static String first(String[] lines) {
        return lines.length == 0 ? "" : lines[0];
    }

    private static String para(String text) {
        return text.isBlank() ? ".PP\n" : esc(text) + "\n";
    }

    /** Escapes troff: backslashes, minus signs, and a leading dot or apostrophe. */
    static String esc(String s) {
        String e = s.replace("\\", "\\e").replace("-", "\\-").replace("%n", " ").replace("%%", "%");
        return e.startsWith(".") || e.startsWith("'") ? "\\&" + e : e;
    }
}
