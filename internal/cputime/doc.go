// Package cputime reads the CPU time this process has used. Benchmarks on a
// shared machine report it beside wall time: other jobs' load moves wall
// time a great deal and a process's own CPU time much less, so A/B
// comparisons made under load use it.
package cputime
