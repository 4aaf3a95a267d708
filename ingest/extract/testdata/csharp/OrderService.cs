using System;
using System.Collections.Generic;
using Acme.Data;

namespace Acme.Shop
{
    public interface IOrderService
    {
        Order Find(string id);
    }

    public class OrderService : ServiceBase, IOrderService, IDisposable
    {
        private readonly IRepository _repo;

        public OrderService(IRepository repo) { _repo = repo; }

        public Order Find(string id)
        {
            var order = _repo.Get(id);
            this.Validate(order);
            Console.WriteLine("found");
            return new Order(id);
        }

        private void Validate(Order o) { }

        public void Dispose() { }
    }

    public enum Status { Open, Closed }

    public struct Money { public decimal Amount; }
}

public static class Registry
{
    public static object Resolve(System.IServiceProvider sp) => sp.GetService<Acme.Shop.OrderService>();
}
