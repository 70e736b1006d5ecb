//go:build purego

package sha1

const pureGo = true
