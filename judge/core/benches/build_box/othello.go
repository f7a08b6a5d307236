// othello-flips in Go: walk the 8 directions from P (the first 4 are the straight ones).
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	var board [8]string
	pr, pc := 0, 0
	for r := 0; r < 8; r++ {
		in.Scan()
		board[r] = in.Text()
		if c := strings.IndexByte(board[r], 'P'); c >= 0 {
			pr, pc = r, c
		}
	}
	dr := []int{0, 0, 1, -1, 1, 1, -1, -1}
	dc := []int{1, -1, 0, 0, 1, -1, 1, -1}
	var flip [8][8]bool
	inside := func(r, c int) bool { return r >= 0 && r < 8 && c >= 0 && c < 8 }
	for d := 0; d < 8 /* directions */; d++ {
		r, c, n := pr+dr[d], pc+dc[d], 0
		for inside(r, c) && board[r][c] == 'W' {
			r, c, n = r+dr[d], c+dc[d], n+1
		}
		if n > 0 && inside(r, c) && board[r][c] == 'B' {
			for k := 1; k <= n; k++ {
				flip[pr+k*dr[d]][pc+k*dc[d]] = true
			}
		}
	}
	var out strings.Builder
	count := 0
	for r := 0; r < 8; r++ {
		for c := 0; c < 8; c++ {
			if flip[r][c] {
				count++
				fmt.Fprintf(&out, "%d %d\n", r+1, c+1)
			}
		}
	}
	fmt.Printf("%d\n%s", count, out.String())
}
