//go:build race

package gcm

// raceEnabled says whether the test binary runs under the race detector.
const raceEnabled = true
