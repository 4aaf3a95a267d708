package demo

class Printer {
  def print(s: String): Unit = write(s)

  def print(s: String, times: Int): Unit = (1 to times).foreach(_ => print(s))

  private def write(s: String): Unit = ()
}
