package sha1

import (
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestGitBlobIDs is the real client's check: git names a file by the SHA-1
// of "blob <size>\x00" and its content, so SumMany's digests of the Go
// tree's src/crypto files, with every multi-lane kernel this CPU runs,
// must be what `git hash-object` prints for them. It is skipped where git
// or the Go tree is missing; with -short it takes 300 files. Under
// qemu-user the emulated test runs the host's git.
func TestGitBlobIDs(t *testing.T) {
	if runtime.GOARCH == "386" && testing.Short() {
		// qemu-i386, where make test runs the 386 binary with -short,
		// crashes a Go program that waits for a child.
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
	if testing.Short() && len(paths) > 300 {
		paths = paths[:300]
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
	check := func(what string, sums [][Size]byte) {
		t.Helper()
		for i := range blobs {
			if got := hex.EncodeToString(sums[i][:]); got != ids[i] {
				t.Fatalf("%s: %s: %s, git hash-object %s", what, paths[i], got, ids[i])
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
	t.Logf("%d files of %s, ManyKernel %s", len(paths), root, ManyKernel())
}
