package sha1_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/simdhash/simdhash/sha1"
)

// Git names a file by the SHA-1 of a short header and its contents; this is
// the name `git hash-object` prints for a file holding "hello world\n".
func ExampleSum() {
	contents := "hello world\n"
	object := fmt.Sprintf("blob %d\x00%s", len(contents), contents)
	fmt.Printf("%x\n", sha1.Sum([]byte(object)))
	// Output: 3b18e512dba79e4c8300dd08aeb37f8e728b8dad
}

// The same git object name, computed while streaming the contents, as one
// would for a large file.
func ExampleNew() {
	contents := strings.NewReader("Hello, Gopher!\n")
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", contents.Size())
	if _, err := io.Copy(h, contents); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%x\n", h.Sum(nil))
	// Output: 4be9d764b9e2b1bbf9a56a32f62cfe397e134bdb
}

// Git object names for many files at once: SumMany hashes the messages
// side by side, in the lanes of one vector register where the CPU allows
// (ManyKernel), and gives exactly what Sum gives for each.
func ExampleSumMany() {
	files := []string{"hello world\n", "", "Hello, Gopher!\n"}
	objects := make([][]byte, len(files))
	for i, contents := range files {
		objects[i] = fmt.Appendf(nil, "blob %d\x00%s", len(contents), contents)
	}
	names := make([][sha1.Size]byte, len(objects))
	sha1.SumMany(names, objects)
	for _, name := range names {
		fmt.Printf("%x\n", name)
	}
	// Output:
	// 3b18e512dba79e4c8300dd08aeb37f8e728b8dad
	// e69de29bb2d1d6434b8b29ae775ad8c2e48c5391
	// 4be9d764b9e2b1bbf9a56a32f62cfe397e134bdb
}
