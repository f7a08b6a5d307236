// Wrong: says the numbers back in the order given, which is right only for palindromes.
fun main() {
    readLine()
    println(readLine()!!.trim())
}
