package demo

class Printer {
    fun print(s: String) {
        write(s)
    }

    fun print(s: String, times: Int) {
        repeat(times) { print(s) }
    }

    private fun write(s: String) {}
}
