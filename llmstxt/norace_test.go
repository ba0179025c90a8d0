//go:build !race

package llmstxt

const raceEnabled = false
