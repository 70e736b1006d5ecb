package gcm

import (
	"crypto/fips140"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestFIPSOnly runs TestFIPSOnlyChild in a test binary of its own under
// GODEBUG=fips140=only (which only a process's start can set), added to
// this run's GODEBUG. Not under -short, which the emulated runs use: under
// qemu user emulation the child is another architecture's binary that the
// host cannot start, or (qemu-i386) the fork crashes the emulator.
func TestFIPSOnly(t *testing.T) {
	if os.Getenv("SIMDHASH_GCM_FIPS_CHILD") == "1" {
		t.Skip("in the child")
	}
	if testing.Short() {
		t.Skip("-short: no child process (see the comment)")
	}
	if purego {
		t.Skip("the Go FIPS 140-3 module refuses to start in a purego build")
	}
	godebug := "fips140=only"
	if g := os.Getenv("GODEBUG"); g != "" {
		godebug = g + "," + godebug
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFIPSOnlyChild$", "-test.v")
	cmd.Env = append(os.Environ(), "SIMDHASH_GCM_FIPS_CHILD=1", "GODEBUG="+godebug)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Skipf("cannot run the test binary again (under an emulator?): %v", err)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: TestFIPSOnlyChild") {
		t.Fatalf("TestFIPSOnlyChild under GODEBUG=fips140=only: %v\n%s", err, out)
	}
}

// TestFIPSOnlyChild checks, in FIPS 140-only mode, that the constructors
// refuse this package's GCM, pass crypto/cipher's own refusal on for a
// crypto/aes block, and build it again inside fips140.WithoutEnforcement.
func TestFIPSOnlyChild(t *testing.T) {
	if os.Getenv("SIMDHASH_GCM_FIPS_CHILD") != "1" {
		t.Skip("run by TestFIPSOnly, in a process of its own")
	}
	if !fips140.Enforced() {
		t.Fatal("GODEBUG=fips140=only, yet fips140.Enforced() is false")
	}
	key := make([]byte, 16)
	bare := newAES(t, key)
	for _, c := range []struct {
		name   string
		ns, ts int
		plain  bool
	}{{"a plainBlock", 12, 16, true}, {"a crypto/aes block, custom nonce and tag sizes", 16, 12, false}} {
		var b = bare
		if c.plain {
			b = plainBlock{Block: bare}
		}
		if a, err := NewWithSizes(b, c.ns, c.ts); err != errFIPS || a != nil {
			t.Errorf("%s: NewWithSizes = %T, %v; want nil, errFIPS", c.name, a, err)
		}
		fips140.WithoutEnforcement(func() {
			if _, err := NewWithSizes(b, c.ns, c.ts); err != nil {
				t.Errorf("%s, in WithoutEnforcement: %v", c.name, err)
			}
		})
	}
	if a, err := New(bare); err == nil || a != nil || err == errFIPS {
		t.Errorf("New(a crypto/aes block) = %T, %v; want crypto/cipher's error for GCM with arbitrary nonces", a, err)
	}
}
