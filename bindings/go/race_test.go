//go:build race

package lspseam

// raceEnabled: the test binary runs under the race detector.
const raceEnabled = true
