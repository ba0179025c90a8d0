//go:build race

package llmstxt

// raceEnabled: under the race detector parsing runs several times slower, and TestBounds allows
// for it.
const raceEnabled = true
