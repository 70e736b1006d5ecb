package cpuid

import "strings"

// GodebugOff reports whether the GODEBUG value env turns the CPU feature
// off: it reads env as the Go runtime (internal/cpu) and golang.org/x/sys/cpu
// do. env is a comma-separated list of key=value fields; the fields
// cpu.<feature> and cpu.all with the value "on" or "off" set the feature,
// the last such field wins, and every other field is ignored.
func GodebugOff(env string, feature string) bool {
	off := false
	for env != "" {
		var field string
		field, env, _ = strings.Cut(env, ",")
		key, value, ok := strings.Cut(field, "=")
		if !ok || (key != "cpu."+feature && key != "cpu.all") {
			continue
		}
		switch value {
		case "off":
			off = true
		case "on":
			off = false
		}
	}
	return off
}
