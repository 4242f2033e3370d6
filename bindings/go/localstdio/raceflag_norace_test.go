//go:build !race

package localstdio

// raceEnabled: the test binary runs under the race detector.
const raceEnabled = false
