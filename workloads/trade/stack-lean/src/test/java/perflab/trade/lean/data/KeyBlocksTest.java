package perflab.trade.lean.data;

import org.junit.jupiter.api.Test;
import perflab.trade.contract.TradeRules;
import perflab.trade.lean.DataAccess;
import perflab.trade.lean.TradeService;
import perflab.trade.lean.TradeSettings;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyBlocksTest {
    @Test
    void twoServicesOnOneDatabaseTakeDisjointBlocksOfAThousand() {
        try (TradeFixture f = TradeFixture.sync(DataAccess.JDBC)) {
            KeyBlocks a = new KeyBlocks(f.dataSource);
            KeyBlocks b = new KeyBlocks(f.dataSource);
            Set<Integer> ids = new HashSet<>();
            for (int i = 0; i < 1500; i++) {
                assertTrue(ids.add(a.next(KeyBlocks.ORDER)));
                assertTrue(ids.add(b.next(KeyBlocks.ORDER)));
            }
            assertEquals(0, ids.stream().mapToInt(Integer::intValue).min().orElseThrow(), "the first id is 0");
            assertEquals(String.valueOf(4 * TradeRules.KEY_BLOCK),
                    f.value("SELECT keyval FROM keygen WHERE keyname = 'order'"), "four blocks taken");
        }
    }

    @Test
    void threadsSharingOneGeneratorGetDistinctIds() throws Exception {
        try (TradeFixture f = TradeFixture.sync(DataAccess.JDBC)) {
            KeyBlocks keys = new KeyBlocks(f.dataSource);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<List<Integer>>> takes = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    takes.add(pool.submit(() -> {
                        List<Integer> mine = new ArrayList<>();
                        for (int i = 0; i < 2500; i++) {
                            mine.add(keys.next(KeyBlocks.HOLDING));
                        }
                        return mine;
                    }));
                }
                Set<Integer> ids = new HashSet<>();
                for (Future<List<Integer>> take : takes) {
                    ids.addAll(take.get());
                }
                assertEquals(10_000, ids.size());
                assertEquals(9_999, ids.stream().mapToInt(Integer::intValue).max().orElseThrow());
            } finally {
                pool.shutdown();
            }
        }
    }

    @Test
    void usersRegisteredThroughTwoServicesGetDistinctAccountIdsWhateverTheirDataAccess() {
        try (TradeFixture f = TradeFixture.sync(DataAccess.JDBC);
             TradeService jdbc = new JdbcTradeService(f.dataSource, TradeSettings.defaults());
             TradeService jpa = DataAccess.JPA.open(f.dataSource, TradeSettings.defaults())) {
            int a = f.register("u1", "1.00").accountId();
            int b = jdbc.register("u2", "pw", "", "", "", "", BigDecimal.ONE).accountId();
            int c = jpa.register("u3", "pw", "", "", "", "", BigDecimal.ONE).accountId();
            assertEquals(0, a);
            assertEquals(TradeRules.KEY_BLOCK, b);
            assertEquals(2 * TradeRules.KEY_BLOCK, c, "the JPA mode takes its ids from keygen's blocks too");
        }
    }
}
