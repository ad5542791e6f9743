package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// cpuClock reads the CPU time of this process and, when the PostgreSQL
// server runs on this machine and its /proc entries are readable, of the
// server processes serving the load test's database. CPU time per move is
// steadier than a rate on a machine shared with other work.
type cpuClock struct {
	pool *pgxpool.Pool
}

// cpuReading is one reading of a cpuClock; pg is negative when the server's
// processes could not be read.
type cpuReading struct {
	self, pg time.Duration
}

func (c cpuClock) read(ctx context.Context) cpuReading {
	var r cpuReading
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		r.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	r.pg = -1
	rows, err := c.pool.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
	if err != nil {
		return r
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil || len(pids) == 0 {
		return r
	}
	var total time.Duration
	for _, pid := range pids {
		t, ok := procCPU(int(pid))
		if !ok {
			return r
		}
		total += t
	}
	r.pg = total
	return r
}

// procCPU returns the user+system CPU time of process pid from /proc.
func procCPU(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name (field 2) may hold spaces: count fields after ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	// After ')': state is field 3, so utime (14) and stime (15) are f[11], f[12].
	if len(f) < 13 {
		return 0, false
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	// Linux reports clock ticks of 1/100 s (USER_HZ) on every common platform.
	return time.Duration(ut+st) * 10 * time.Millisecond, true
}

// perOp formats the CPU time between two readings divided by n operations.
func perOp(before, after cpuReading, n int) string {
	if n <= 0 {
		return "no operations"
	}
	s := fmt.Sprintf("this process (server and clients) %.3f ms", ms((after.self-before.self)/time.Duration(n)))
	if before.pg >= 0 && after.pg >= 0 {
		s += fmt.Sprintf(", PostgreSQL %.3f ms", ms((after.pg-before.pg)/time.Duration(n)))
	} else {
		s += ", PostgreSQL not measurable (server not local or /proc not readable)"
	}
	return s
}
