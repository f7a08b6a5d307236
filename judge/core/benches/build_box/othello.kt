// othello-flips in Kotlin: walk the 8 directions from P (the first 4 are the straight ones).
fun main() {
    val board = Array(8) { readLine()!! }
    var pr = 0
    var pc = 0
    for (r in 0 until 8) for (c in 0 until 8) if (board[r][c] == 'P') { pr = r; pc = c }
    val dr = intArrayOf(0, 0, 1, -1, 1, 1, -1, -1)
    val dc = intArrayOf(1, -1, 0, 0, 1, -1, 1, -1)
    val flip = Array(8) { BooleanArray(8) }
    for (d in 0 until 8 /* directions */) {
        var r = pr + dr[d]
        var c = pc + dc[d]
        var n = 0
        while (r in 0..7 && c in 0..7 && board[r][c] == 'W') { r += dr[d]; c += dc[d]; n++ }
        if (n > 0 && r in 0..7 && c in 0..7 && board[r][c] == 'B') {
            for (k in 1..n) flip[pr + k * dr[d]][pc + k * dc[d]] = true
        }
    }
    val out = StringBuilder()
    var count = 0
    for (r in 0 until 8) for (c in 0 until 8) if (flip[r][c]) {
        count++
        out.append(r + 1).append(' ').append(c + 1).append('\n')
    }
    print("$count\n$out")
}
