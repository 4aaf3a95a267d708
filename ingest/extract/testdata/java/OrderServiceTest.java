package com.acme.shop;

import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

class OrderServiceTest {
    private OrderService service;

    @Test
    void findsOrders() {
        Order o = service.find("1");
        assertEquals("1", o.getId());
    }

    @BeforeEach
    void setUp() {
        service = new OrderService(new FakeRepo());
    }
}
