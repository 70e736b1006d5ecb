package sha1

import (
	stdsha1 "crypto/sha1"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// A manyWork is one benchmark workload of SumMany: a batch of messages.
type manyWork struct {
	name string
	msgs func() ([][]byte, error)
	// files reports files per second as well (the git workload).
	files bool
}

var manyWorks = []manyWork{
	{name: "16x8KiB", msgs: func() ([][]byte, error) { return equalBatch(16, 8192), nil }},
	{name: "1000xrand16KiB", msgs: func() ([][]byte, error) { return randomBatch(rand.New(rand.NewPCG(1, 2)), 1000, 16384), nil }},
	{name: "gitblobs", msgs: gitBlobs, files: true},
}

func equalBatch(n, size int) [][]byte {
	rng := rand.New(rand.NewPCG(3, 4))
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = randomBytes(rng, size)
	}
	return msgs
}

var (
	blobsOnce sync.Once
	blobs     [][]byte
	blobsErr  error
)

// gitBlobs returns, read once, every regular file under the tree named by
// SIMDHASH_BLOB_TREE (default: the Go distribution's src directory) as a
// git blob object: "blob <size>\x00" followed by the content, whose SHA-1
// is the file's object id.
func gitBlobs() ([][]byte, error) {
	blobsOnce.Do(func() {
		root := os.Getenv("SIMDHASH_BLOB_TREE")
		if root == "" {
			root = filepath.Join(runtime.GOROOT(), "src")
		}
		blobsErr = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			blob := append([]byte("blob "+strconv.Itoa(len(data))+"\x00"), data...)
			blobs = append(blobs, blob)
			return nil
		})
		if blobsErr == nil && len(blobs) == 0 {
			blobsErr = fmt.Errorf("no files under %s", root)
		}
	})
	return blobs, blobsErr
}

// BenchmarkSumMany hashes each workload with a loop of Sum (the kernel
// Kernel reports: the baseline of docs/sha1-many.md), a loop of
// crypto/sha1.Sum, and SumMany with each multi-lane kernel this CPU runs:
//
//	BenchmarkSumMany/work=16x8KiB/impl=Sum-loop
//	BenchmarkSumMany/work=16x8KiB/impl=avx2x8
//
// benchstat -col /impl compares them within one run.
func BenchmarkSumMany(b *testing.B) {
	for _, w := range manyWorks {
		b.Run("work="+w.name, func(b *testing.B) {
			msgs, err := w.msgs()
			if err != nil {
				b.Skipf("no %s workload: %v", w.name, err)
			}
			total := 0
			for _, m := range msgs {
				total += len(m)
			}
			sums := make([][Size]byte, len(msgs))
			run := func(name string, f func()) {
				b.Run("impl="+name, func(b *testing.B) {
					b.SetBytes(int64(total))
					for b.Loop() {
						f()
					}
					if w.files {
						b.ReportMetric(float64(len(msgs))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
					}
					if i := len(msgs) - 1; sums[i] != stdsha1.Sum(msgs[i]) {
						b.Fatalf("%s: wrong sum of the last message", name)
					}
				})
			}
			run("Sum-loop", func() {
				for i, m := range msgs {
					sums[i] = Sum(m)
				}
			})
			run("crypto-sha1", func() {
				for i, m := range msgs {
					sums[i] = stdsha1.Sum(m)
				}
			})
			for i := range manyKernels {
				k := &manyKernels[i]
				if k.lanes == 0 || k.id == manyPortable {
					continue
				}
				if !k.available {
					b.Run("impl="+k.name, func(b *testing.B) { b.Skip(manyUnavailable(k)) })
					continue
				}
				run(k.name, func() { sumMany(sums, msgs, k) })
			}
		})
	}
}

// BenchmarkSumManyFew hashes m messages of 8 KiB for m = 1..lanes with
// each multi-lane kernel forced to keep its lanes (threshold 1), and with
// a loop of Sum: where the two cross is the handoff threshold manyMinLive
// should compute.
func BenchmarkSumManyFew(b *testing.B) {
	for i := range manyKernels {
		k := &manyKernels[i]
		if k.lanes == 0 || k.id == manyPortable || !k.available {
			continue
		}
		for m := 1; m <= k.lanes; m++ {
			msgs := equalBatch(m, 8192)
			sums := make([][Size]byte, m)
			b.Run("m="+strconv.Itoa(m)+"/impl=Sum-loop", func(b *testing.B) {
				b.SetBytes(int64(m * 8192))
				for b.Loop() {
					for i, msg := range msgs {
						sums[i] = Sum(msg)
					}
				}
			})
			kk := *k
			kk.minLive = 1
			b.Run("m="+strconv.Itoa(m)+"/impl="+k.name, func(b *testing.B) {
				b.SetBytes(int64(m * 8192))
				for b.Loop() {
					sumMany(sums, msgs, &kk)
				}
			})
		}
	}
}

// BenchmarkManyBlocks calls each multi-lane kernel directly on 64 blocks
// of every lane: its throughput without the scheduler, in bytes of all
// lanes together.
func BenchmarkManyBlocks(b *testing.B) {
	const n = 64
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range manyKernels {
		k := &manyKernels[i]
		if k.lanes == 0 || k.id == manyPortable {
			continue
		}
		b.Run(k.name, func(b *testing.B) {
			if !k.available {
				b.Skip(manyUnavailable(k))
			}
			var s manyLanes
			data := randomBytes(rng, maxLanes*n*BlockSize)
			b.SetBytes(int64(k.lanes * n * BlockSize))
			for b.Loop() {
				for l := range s.P[0] { // the kernels advance p[0] and c
					s.P[0][l], s.C[0][l], s.C[1][l] = &data[l*n*BlockSize], 0, n
				}
				manyBlocks(k, &s, n)
			}
		})
	}
}
