// Crashes on subtask 2: toInt() throws NumberFormatException above 2^31 - 1.
fun main() {
    val (a, b) = readLine()!!.trim().split(" ").map { it.toInt() }
    println(a.toLong() + b.toLong())
}
