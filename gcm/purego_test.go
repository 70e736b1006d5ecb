//go:build purego

package gcm

// purego says whether the test binary was built with -tags purego.
const purego = true
