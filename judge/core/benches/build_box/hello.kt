fun main() { println("hello") }
