package sha1dc

import (
	"bytes"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/simdhash/simdhash/internal/testvectors"
)

// TestGitBlobIDs is the real client's check: git names a file by the
// collision-detecting SHA-1 of "blob <size>\x00" and its content, so
// sha1dc's digests of the Go tree's src/crypto files and of the four
// collision files, by Sum with every kernel and by SumMany with every
// multi-lane kernel, must be what `git hash-object`
// prints for them. (The blob header moves a collision file's blocks off the
// state its collision needs, so git and sha1dc detect nothing there and
// both give plain SHA-1; the colliding files themselves are
// TestCollisionFiles'.) It is
// skipped where git or the Go tree is missing; with -short it takes 100
// files of the Go tree.
func TestGitBlobIDs(t *testing.T) {
	if runtime.GOARCH == "386" && testing.Short() {
		// qemu-i386, where make test runs the 386 binary with -short,
		// crashes a Go program that waits for a child ("exitsyscall:
		// syscall frame is no longer valid").
		t.Skip("386 with -short: qemu-i386 crashes waiting for git")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git on PATH")
	}
	root := filepath.Join(runtime.GOROOT(), "src", "crypto")
	var paths []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		t.Skipf("no files under %s", root)
	}
	if testing.Short() && len(paths) > 100 {
		paths = paths[:100]
	}
	for _, name := range []string{"shattered-1.pdf", "shattered-2.pdf", "sha-mbles-1.bin", "sha-mbles-2.bin"} {
		paths = append(paths, testvectors.Path("sha1dc", name))
	}
	cmd := exec.Command(git, "hash-object", "--no-filters", "--stdin-paths")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("git hash-object: %v", err)
	}
	ids := strings.Fields(string(out))
	if len(ids) != len(paths) {
		t.Fatalf("git hash-object printed %d ids for %d files", len(ids), len(paths))
	}
	blobs := make([][]byte, len(paths))
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		blobs[i] = append([]byte("blob "+strconv.Itoa(len(b))+"\x00"), b...)
	}
	// Sum with every kernel; SumMany with every multi-lane kernel.
	forEachKernel(t, func(t *testing.T) {
		for i, blob := range blobs {
			want, err := hex.DecodeString(ids[i])
			if err != nil {
				t.Fatalf("git hash-object printed %q", ids[i])
			}
			if s, col := Sum(blob); !bytes.Equal(s[:], want) || col {
				t.Errorf("%s: Sum %x %v, git hash-object %s", paths[i], s, col, ids[i])
			}
		}
	})
	for i := range manyKernels {
		k := &manyKernels[i]
		if !k.available {
			continue
		}
		sums := make([][Size]byte, len(blobs))
		detected := make([]bool, len(blobs))
		sumMany(sums, detected, blobs, k)
		for i := range blobs {
			if want, _ := hex.DecodeString(ids[i]); !bytes.Equal(sums[i][:], want) || detected[i] {
				t.Errorf("%s: SumMany (%s) %x %v, git hash-object %s", paths[i], k.name, sums[i], detected[i], ids[i])
			}
		}
	}
	t.Logf("%d files of %s", len(paths), root)
}
