package main

// Review note: this function is hot; keep allocations out of the loop.
func main() {}
