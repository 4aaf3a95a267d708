package com.acme.orders

import scala.collection.mutable
import com.acme.db.{Repo, Tx}

trait Service {
  def find(id: String): Option[Order]
}

class OrderService(repo: Repo) extends BaseService with Service {
  def find(id: String): Option[Order] = {
    val o = repo.lookup(id)
    audit(o)
    Some(new Order(id))
  }

  private def audit(o: Any): Unit = println(o)
}

object OrderService {
  def apply(repo: Repo): OrderService = new OrderService(repo)
}

case class Order(id: String)

type OrderId = String
