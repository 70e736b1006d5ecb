package sha1

import (
	"encoding/hex"
	"testing"

	"github.com/simdhash/simdhash/internal/testvectors"
)

// TestGitBlobIDs is the real client's check: git names a file by the SHA-1
// of "blob <size>\x00" and its content, so SumMany's digests of the Go
// tree's src/crypto files, with every multi-lane kernel this CPU runs,
// must be what `git hash-object` prints for them (testvectors.GitBlobs,
// which skips the test where git or the Go tree is missing); with -short
// it takes 300 files.
func TestGitBlobIDs(t *testing.T) {
	files := testvectors.GitBlobs(t, 300)
	blobs := make([][]byte, len(files))
	for i, f := range files {
		blobs[i] = f.Blob
	}
	check := func(what string, sums [][Size]byte) {
		t.Helper()
		for i, f := range files {
			if got := hex.EncodeToString(sums[i][:]); got != f.ID {
				t.Fatalf("%s: %s: %s, git hash-object %s", what, f.Path, got, f.ID)
			}
		}
	}
	sums := make([][Size]byte, len(blobs))
	SumMany(sums, blobs)
	check("SumMany with "+ManyKernel(), sums)
	forEachManyKernel(t, func(t *testing.T, k *manyKernel) {
		clear(sums)
		sumMany(sums, blobs, k)
		check(k.name, sums)
	})
	t.Logf("%d files, ManyKernel %s", len(files), ManyKernel())
}
