package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	input, err := os.ReadFile("/dev/stdin")
	if err != nil {
		panic(err)
	}
	out, err := os.OpenFile("/dev/stdout", os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	if strings.Count(string(input), "\n") == 8 {
		fmt.Fprintln(out, 0)
	} else {
		fmt.Fprintln(out, 1)
	}
}
