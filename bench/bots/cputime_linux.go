package main

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns a clock of the calling goroutine's thread CPU time and
// locks the goroutine to its thread, so that a decision's time is its time
// on one core, whatever else the machine runs.
func threadCPU() func() time.Duration {
	runtime.LockOSThread()
	return func() time.Duration {
		var ts syscall.Timespec
		const clockThreadCPUTimeID = 3
		syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
		return time.Duration(ts.Nano())
	}
}
