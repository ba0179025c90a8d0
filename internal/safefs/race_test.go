//go:build race

package safefs

// raceEnabled: under the race detector the kill tests' children run several
// times slower, so they build smaller sites.
const raceEnabled = true
