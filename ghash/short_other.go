//go:build !amd64 || purego

package ghash

// gcmShort is the amd64 kernels' short-message entry: no kernel of this
// build has a gcm form, so Key.SumGCM never calls it.
func gcmShort(y *[16]byte, key *[asmKeyWords]uint64, a, c []byte, bitsA, bitsC uint64, withY bool, form uint8) {
	panic(errGCMForm)
}
