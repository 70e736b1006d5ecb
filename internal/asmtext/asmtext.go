// Package asmtext reads generated Go assembly, for the tests that check
// what a kernel's text holds: an instruction a kernel must run without
// (the 64-bit PMULL, the SHA-1 instructions) is caught whether it is
// written as a mnemonic or as a WORD, which qemu would run anyway.
package asmtext

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Body returns the lines of the TEXT block for symbol name in src, up to
// the next TEXT, DATA or GLOBL, and whether there is such a block.
func Body(src, name string) (lines []string, ok bool) {
	in := false
	for _, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "TEXT "):
			in = strings.Contains(t, "·"+name+"(SB)")
			ok = ok || in
			continue
		case strings.HasPrefix(t, "DATA ") || strings.HasPrefix(t, "GLOBL "):
			in = false
		}
		if in {
			lines = append(lines, l)
		}
	}
	return lines, ok
}

// Code is the line without its comment.
func Code(line string) string {
	code, _, _ := strings.Cut(line, "//")
	return code
}

var wordText = regexp.MustCompile(`\bWORD\s+\$(0x[0-9a-fA-F]+|\d+)`)

// Words returns the values of the WORD directives in the code of line;
// ok is false if one of them is not a 32-bit number.
func Words(line string) (words []uint32, ok bool) {
	for _, m := range wordText.FindAllStringSubmatch(Code(line), -1) {
		w, err := strconv.ParseUint(m[1], 0, 32)
		if err != nil {
			return words, false
		}
		words = append(words, uint32(w))
	}
	return words, true
}

// Requires returns the "Requires:" line above the TEXT of symbol name in
// src, without its prefix, and whether there is one.
func Requires(src, name string) (string, bool) {
	m := regexp.MustCompile(`// Requires: ([^\n]*)\nTEXT ·` + regexp.QuoteMeta(name) + `\(SB\)`).FindStringSubmatch(src)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// Unlisted returns the extensions on a "Requires:" line (as Requires
// returns it) that are not among features, the names a kernel's
// availability tests: a kernel that runs an extension it does not test
// for would be chosen on a CPU without it.
func Unlisted(req string, features []string) []string {
	var missing []string
	for _, ext := range strings.Split(req, ", ") {
		if !slices.Contains(features, ext) {
			missing = append(missing, ext)
		}
	}
	return missing
}

// Lines returns the lines of body that hold an instruction a kernel must
// run without: those text reports true for (the instruction written out,
// or named in a comment, as the caller chooses), and those with a WORD
// whose value word reports true for or that is not a 32-bit number.
func Lines(body []string, text func(line string) bool, word func(uint32) bool) []string {
	var bad []string
	for _, l := range body {
		words, ok := Words(l)
		if text(l) || !ok || slices.ContainsFunc(words, word) {
			bad = append(bad, l)
		}
	}
	return bad
}
