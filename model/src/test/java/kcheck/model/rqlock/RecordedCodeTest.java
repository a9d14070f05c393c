package kcheck.model.rqlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import kcheck.model.ModelLimitException;

class RecordedCodeTest {

    @Test
    void beforeVariantBranchesOnTheTrylockAndDropsThisRqOnlyForALowerBusiest() {
        RecordedCode.Node root = RecordedCode.record("before", k -> new DoubleLockBalanceV2627().doubleLockBalance(k, 1, 0));
        assertThat(root.kind).isEqualTo(RecordedCode.Kind.TRYLOCK);
        assertThat(root.rq).isZero();
        RecordedCode.Node taken = root.children[1];
        assertThat(taken.kind).isEqualTo(RecordedCode.Kind.END);
        assertThat(taken.ret).isZero();
        RecordedCode.Node failed = root.children[0];
        assertThat(failed.kind).isEqualTo(RecordedCode.Kind.UNLOCK);
        assertThat(failed.rq).isEqualTo(1);
        assertThat(failed.children[0].kind).isEqualTo(RecordedCode.Kind.LOCK);
        assertThat(failed.children[0].rq).isZero();
        assertThat(failed.children[0].children[0].rq).isEqualTo(1);
        assertThat(failed.children[0].children[0].children[0].ret).isEqualTo(1);
    }

    @Test
    void beforeVariantKeepsThisRqForAHigherBusiest() {
        RecordedCode.Node root = RecordedCode.record("before", k -> new DoubleLockBalanceV2627().doubleLockBalance(k, 0, 1));
        RecordedCode.Node failed = root.children[0];
        assertThat(failed.kind).isEqualTo(RecordedCode.Kind.LOCK);
        assertThat(failed.rq).isEqualTo(1);
        assertThat(failed.children[0].ret).isZero();
    }

    @Test
    void afterVariantDropsThisRqThenLocksInIdOrder() {
        RecordedCode.Node root = RecordedCode.record("after", k -> new DoubleLockBalanceV2628().doubleLockBalance(k, 2, 1));
        assertThat(root.kind).isEqualTo(RecordedCode.Kind.UNLOCK);
        assertThat(root.rq).isEqualTo(2);
        assertThat(root.children[0].rq).as("lower id first").isEqualTo(1);
        assertThat(root.children[0].children[0].rq).isEqualTo(2);
        assertThat(root.children[0].children[0].children[0].ret).isEqualTo(1);
    }

    @Test
    void everyPrimitiveCitesTheKernelFunctionItRunsIn() {
        RecordedCode.Node root = RecordedCode.record("after", k -> new DoubleLockBalanceV2628().doubleLockBalance(k, 2, 1));
        assertThat(root.cite).startsWith("_double_lock_balance (kernel/sched.c, v2.6.28 CONFIG_PREEMPT").endsWith("\u2190 double_lock_balance");
        assertThat(root.children[0].cite).startsWith("double_rq_lock (kernel/sched.c, v2.6.28)").contains("\u2190 double_lock_balance");
    }

    @Test
    void codeThatSpinsOnTrylockIsRejected() {
        assertThatThrownBy(() -> RecordedCode.record("spinner", k -> {
            while (!k.spinTrylock(0)) {
                k.spinUnlock(1);
            }
            return 0;
        })).isInstanceOf(ModelLimitException.class).hasMessageContaining("spinner");
    }
}
