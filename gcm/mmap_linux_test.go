package gcm

import "syscall"

// mapNoReserve asks mmap for address space without reserving swap for it.
const mapNoReserve = syscall.MAP_NORESERVE
