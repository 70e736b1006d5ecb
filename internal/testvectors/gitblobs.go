package testvectors

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// A GitBlob is a file as git stores it: Blob is "blob <size>\x00" and the
// file's content, whose SHA-1 (with collision detection, as git hashes)
// git prints as ID (hex).
type GitBlob struct {
	Path string
	ID   string
	Blob []byte
}

// GitBlobs returns the Go tree's src/crypto files (the first limit of
// them with -short) and the files extra as git blobs, with the ids `git
// hash-object` gives them: the real client's check of sha1 and sha1dc. It
// skips t where git or the Go tree is missing, and on 386 with -short:
// qemu-i386, where make test runs the 386 binaries with -short, crashes a
// Go program that waits for a child ("exitsyscall: syscall frame is no
// longer valid"). Under qemu-user the emulated test runs the host's git.
func GitBlobs(t testing.TB, limit int, extra ...string) []GitBlob {
	t.Helper()
	if runtime.GOARCH == "386" && testing.Short() {
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
	if testing.Short() && len(paths) > limit {
		paths = paths[:limit]
	}
	paths = append(paths, extra...)
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
	blobs := make([]GitBlob, len(paths))
	for i, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		blobs[i] = GitBlob{Path: p, ID: ids[i], Blob: append([]byte("blob "+strconv.Itoa(len(b))+"\x00"), b...)}
	}
	return blobs
}
