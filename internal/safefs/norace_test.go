//go:build !race

package safefs

const raceEnabled = false
