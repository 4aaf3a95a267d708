/**
 * Order handling for the shop backend.
 */
package com.acme.shop;

import java.util.List;
import java.util.concurrent.*;
import com.acme.repo.OrderRepository;
import static com.acme.util.Checks.requireNonNull;
import org.springframework.stereotype.Service;

@Service
public class OrderService extends BaseService<Order> implements Closeable, Auditable {
    public static final int MAX_ITEMS = 50;
    private final OrderRepository repo;
    private Cache<String, Order> cache = new Cache<>();
    Logger log;

    public OrderService(OrderRepository repo) {
        super(repo);
        this.repo = repo;
    }

    @Override
    public Order find(String id) {
        requireNonNull(id);
        Order o = repo.findById(id);
        this.cache.put(id, o);
        var audit = new AuditEvent(id);
        audit.publish();
        log.info("found");
        validate(o);
        Executors.newFixedThreadPool(2);
        com.acme.util.Strings.trim(id);
        return o;
    }

    private void validate(Order o) {
        super.check(o);
        items.forEach(i -> i.verify());
    }

    @Deprecated
    protected abstract List<Order> recent(int n);

    interface Listener {
        void onOrder(Order o);
    }

    enum Status {
        OPEN, CLOSED;

        boolean done() { return this == CLOSED; }
    }

    record Line(Product product, int qty) {}

    public void close() {
        new Thread(new Runnable() {
            public void run() { flush(); }
        }).start();
    }
}
