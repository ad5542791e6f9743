package bot_test

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns a clock of the calling thread's CPU time (the caller
// must stay on its thread: runtime.LockOSThread), so that a decision's
// time does not count the other processes of a shared machine.
func threadCPU() func() time.Duration {
	runtime.LockOSThread()
	return func() time.Duration {
		var ts syscall.Timespec
		const clockThreadCPUTimeID = 3
		syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
		return time.Duration(ts.Nano())
	}
}
