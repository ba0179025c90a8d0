//go:build race

package main

// raceEnabled: the race detector's runtime reserves more address space than
// the hostile children's limit allows and multiplies their memory, so the
// corpus runs only in the ordinary test run.
const raceEnabled = true
