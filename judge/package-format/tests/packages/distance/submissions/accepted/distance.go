// math.Hypot, printed in scientific notation (the default validator accepts any float form).
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var q int
	fmt.Fscan(in, &q)
	for ; q > 0; q-- {
		var x1, y1, x2, y2 float64
		fmt.Fscan(in, &x1, &y1, &x2, &y2)
		fmt.Fprintf(out, "%e\n", math.Hypot(x2-x1, y2-y1))
	}
}
