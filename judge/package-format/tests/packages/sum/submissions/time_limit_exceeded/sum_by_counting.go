// Too slow: adds b by counting one at a time, about 10^18 steps for subtask 2.
package main

import "fmt"

func main() {
	var a, b int64
	fmt.Scan(&a, &b)
	for b > 0 {
		a++
		b--
	}
	for b < 0 {
		a--
		b++
	}
	fmt.Println(a)
}
