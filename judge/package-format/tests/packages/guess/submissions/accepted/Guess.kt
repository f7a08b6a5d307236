// Binary search over Long.
fun main() {
    val n = readLine()!!.trim().toLong()
    var lo = 1L
    var hi = n
    while (true) {
        val mid = lo + (hi - lo) / 2
        println(mid)
        System.out.flush()
        when (readLine()?.trim()) {
            "higher" -> lo = mid + 1
            "lower" -> hi = mid - 1
            else -> return
        }
    }
}
