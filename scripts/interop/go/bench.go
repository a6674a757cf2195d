package main

func runBench(corpus, out string, quick bool) error { return nil }
