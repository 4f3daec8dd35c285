// Command skillrepo turns an agent's skills folder into a git repository
// and runs the agent's self-improvement loop on it.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], systemIO(), os.Getenv)) }
