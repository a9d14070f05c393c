package kcheck.model.rqlock;

import java.util.List;

import kcheck.model.ModelInputException;

/** The built-in runqueue spinlocks, by the value of the model's {@code lock} parameter. */
public final class RqSpinlocks {
    /** Values of {@code --param lock}, default first. */
    public static final List<String> KINDS = List.of("ticket", "tas", "qspinlock", "qspinlock-virt");

    private RqSpinlocks() {
    }

    /** A fresh instance of built-in lock {@code kind}. */
    public static RqSpinlock builtIn(String kind) {
        return switch (kind) {
            case "ticket" -> new TicketSpinlock();
            case "tas" -> new TasSpinlock();
            case "qspinlock" -> new QSpinlock(false);
            case "qspinlock-virt" -> new QSpinlock(true);
            default -> throw new ModelInputException("rq-lock: lock must be one of " + String.join("|", KINDS) + ", got '" + kind + "'");
        };
    }
}
