package main

import (
	"slices"
	"testing"

	"github.com/simdhash/simdhash/gen/tools/bochstest/internal/guestrun"
)

// TestDispatchTests checks which tests a run's SIMDHASH_*_KERNEL pairs
// make the guest run first.
func TestDispatchTests(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want []string
	}{
		{nil, nil},
		{[]string{"GODEBUG=cpu.sha=off"}, nil},
		{[]string{"SIMDHASH_GHASH_KERNEL=vpclmul512"}, []string{"TestDispatch"}},
		{[]string{"SIMDHASH_GHASH_KERNEL="}, nil}, // an empty name expects nothing
		{[]string{"GODEBUG=cpu.sha=off", "SIMDHASH_SHA1_MANY_KERNEL=avx512x16"}, []string{"TestManyDispatch"}},
		{[]string{"SIMDHASH_SHA1_KERNEL=avx2", "SIMDHASH_SHA1_MANY_KERNEL=avx512x16"}, []string{"TestDispatch", "TestManyDispatch"}},
	} {
		if got := dispatchTests(c.env); !slices.Equal(got, c.want) {
			t.Errorf("dispatchTests(%q) = %q, want %q", c.env, got, c.want)
		}
	}
}

// TestCheckRunMustPass checks that a run fails unless every test it must
// pass has a PASS line.
func TestCheckRunMustPass(t *testing.T) {
	out := []string{"=== RUN   TestDispatch", "--- PASS: TestDispatch (0.00s)", "PASS"}
	r := planned{mustPass: []string{"TestDispatch"}}
	if err := checkRun(r, out, nil, func() string { return "" }); err == nil {
		t.Error("a run that did not finish passed")
	}
	end := &guestrun.Marker{Kind: "end", Status: 0, How: "exit status 0"}
	if err := checkRun(r, out, end, nil); err != nil {
		t.Errorf("TestDispatch passed, yet: %v", err)
	}
	r.mustPass = append(r.mustPass, "TestManyDispatch")
	if err := checkRun(r, out, end, nil); err == nil {
		t.Error("TestManyDispatch did not run, yet the run passed")
	}
}
