// Build time: `import "C"` makes `go build` run gcc on the preamble: #include a host file and
// read it in the CE message.
package main

/*
#include "@TESTS@/manifest.csv"
*/
import "C"

func main() {}
