//go:build linux

// Guest is the /init of the initramfs that bochstest boots under bochs. It
// mounts /proc, /sys and /dev, runs the processes listed in the initramfs's
// guestrun.ConfigPath one after another with their output on the console
// (the serial port), prints the guestrun markers around them, and then
// ends the machine: it restarts it, which the kernel command line
// (reboot=t) turns into a triple fault, and bochs (reset_on_triple_fault=0)
// exits on that. The kernel has no ACPI, so there is no power-off to ask for.
//
// Built by scripts/bochs-test.sh as a static linux/amd64 binary; it is not
// meant to run anywhere else.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/simdhash/simdhash/gen/tools/bochstest/internal/guestrun"
)

func main() {
	for _, m := range []struct{ fs, dir string }{{"proc", "/proc"}, {"sysfs", "/sys"}, {"devtmpfs", "/dev"}} {
		if err := os.MkdirAll(m.dir, 0o755); err == nil {
			if err := syscall.Mount(m.fs, m.dir, m.fs, 0, ""); err != nil {
				fmt.Printf("guest: mount %s on %s: %v\n", m.fs, m.dir, err)
			}
		}
	}
	if err := os.MkdirAll("/tmp", 0o1777); err != nil {
		fmt.Printf("guest: %v\n", err)
	}
	fmt.Println(guestrun.Started())
	if err := runAll(); err != nil {
		fmt.Printf("guest: %v\n", err)
	}
	fmt.Println(guestrun.Done())
	end()
}

func runAll() error {
	b, err := os.ReadFile(guestrun.ConfigPath)
	if err != nil {
		return err
	}
	var c guestrun.Config
	if err := json.Unmarshal(b, &c); err != nil {
		return fmt.Errorf("%s: %v", guestrun.ConfigPath, err)
	}
	base := []string{"PATH=/bin", "HOME=/tmp", "TMPDIR=/tmp"}
	for i, r := range c.Runs {
		fmt.Println(guestrun.Begin(i))
		cmd := exec.Command(r.Path, r.Args...)
		cmd.Dir = r.Dir
		cmd.Env = append(base[:len(base):len(base)], r.Env...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stdout
		err := cmd.Run()
		switch {
		case cmd.ProcessState != nil:
			fmt.Println(guestrun.End(i, cmd.ProcessState.ExitCode(), cmd.ProcessState.String()))
		default:
			fmt.Println(guestrun.End(i, -1, err.Error()))
		}
	}
	return nil
}

// end flushes the console and stops the machine; it does not return.
func end() {
	syscall.Sync()
	// TCSBRK with a non-zero argument is tcdrain: wait until the UART has
	// sent everything, or the last lines are lost with the machine.
	unix.IoctlSetInt(1, unix.TCSBRK, 1)
	err := syscall.Reboot(syscall.LINUX_REBOOT_CMD_RESTART)
	fmt.Printf("guest: reboot: %v\n", err)
	syscall.Reboot(syscall.LINUX_REBOOT_CMD_POWER_OFF)
	select {}
}
