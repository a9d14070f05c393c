package kcheck.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class BaselineShardTest {
    static final Baseline B = Baseline.read(Path.of("..", "kcheck-baseline.json"));

    @Test
    void shardsOneToNHoldEveryEntryExactlyOnceAndNoSearchInTwoShards() {
        for (boolean quick : new boolean[] {false, true}) {
            for (int n = 1; n <= 5; n++) {
                Map<Baseline.Entry, Integer> seen = new IdentityHashMap<>();
                Map<String, Integer> shardOfGroup = new java.util.HashMap<>();
                for (int i = 1; i <= n; i++) {
                    Baseline s = B.shard(i, n, quick);
                    assertThat(s.entries()).as("shard %d/%d is not empty", i, n).isNotEmpty();
                    for (Baseline.Entry e : s.entries()) {
                        assertThat(seen.put(e, i)).as("%s in two shards", e.name()).isNull();
                        Integer other = shardOfGroup.put(Baseline.group(e, quick), i);
                        assertThat(other == null || other == i).as("search of %s split across shards", e.name()).isTrue();
                    }
                }
                assertThat(seen).hasSize(B.entries().size());
            }
        }
    }

    @Test
    void shardsAreDeterministicAndKeepBaselineOrder() {
        List<String> a = new ArrayList<>();
        B.shard(2, 3, false).entries().forEach(e -> a.add(e.name()));
        List<String> b = new ArrayList<>();
        B.shard(2, 3, false).entries().forEach(e -> b.add(e.name()));
        assertThat(a).isEqualTo(b);
        List<Baseline.Entry> all = B.entries();
        List<Baseline.Entry> s = B.shard(1, 3, false).entries();
        for (int k = 1; k < s.size(); k++) {
            assertThat(indexOf(all, s.get(k))).isGreaterThan(indexOf(all, s.get(k - 1)));
        }
    }

    @Test
    void shardsBalanceSearchesRoundRobin() {
        Set<String> groups = new HashSet<>();
        B.entries().forEach(e -> groups.add(Baseline.group(e, false)));
        for (int i = 1; i <= 3; i++) {
            Set<String> g = new HashSet<>();
            B.shard(i, 3, false).entries().forEach(e -> g.add(Baseline.group(e, false)));
            assertThat(g.size()).isBetween(groups.size() / 3, groups.size() / 3 + 1);
        }
    }

    @Test
    void aShardOutsideOneToNIsRefused() {
        assertThatThrownBy(() -> B.shard(0, 3, false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> B.shard(4, 3, false)).isInstanceOf(IllegalArgumentException.class);
    }

    private static int indexOf(List<Baseline.Entry> all, Baseline.Entry e) {
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i) == e) {
                return i;
            }
        }
        return -1;
    }
}
