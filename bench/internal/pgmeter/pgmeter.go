// Package pgmeter reads what a benchmark run costs on this machine: the
// CPU time of the process that calls it, of the whole local PostgreSQL
// cluster (the postmaster, its live children and those it reaped, from
// /proc, as the shared harness's lib/meter.js reads it), and the WAL
// position. bench/peers' programs (the event store, the floor) share it.
package pgmeter

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Meter reads the CPU of this process and of the PostgreSQL cluster its
// connection is on (the server must be local), and the WAL position.
type Meter struct {
	conn       *pgx.Conn
	postmaster int
}

// Reading is one reading of a Meter: this process's CPU time, the
// cluster's CPU time and the WAL position in bytes.
type Reading struct {
	Self, PG time.Duration
	WAL      int64
}

// New returns a Meter on the cluster c is connected to.
func New(ctx context.Context, c *pgx.Conn) (*Meter, error) {
	var pid int
	if err := c.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		return nil, err
	}
	f, err := procStat(pid)
	if err != nil {
		return nil, err
	}
	pm, _ := strconv.Atoi(f[1])
	return &Meter{conn: c, postmaster: pm}, nil
}

// Read takes the /proc readings first, then the WAL position.
func (m *Meter) Read(ctx context.Context) Reading {
	var r Reading
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		r.Self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	r.PG = m.clusterCPU()
	_ = m.conn.QueryRow(ctx, `SELECT pg_current_wal_lsn() - '0/0'::pg_lsn`).Scan(&r.WAL)
	return r
}

// clusterCPU sums utime, stime (and, for the postmaster, its reaped
// children's) of the postmaster and its children, in clock ticks of 10 ms.
func (m *Meter) clusterCPU() time.Duration {
	var ticks int64
	if f, err := procStat(m.postmaster); err == nil {
		for _, i := range []int{11, 12, 13, 14} {
			v, _ := strconv.ParseInt(f[i], 10, 64)
			ticks += v
		}
	}
	dirs, _ := os.ReadDir("/proc")
	pm := strconv.Itoa(m.postmaster)
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if f, err := procStat(pid); err == nil && f[1] == pm {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			s, _ := strconv.ParseInt(f[12], 10, 64)
			ticks += u + s
		}
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// procStat returns the fields of /proc/PID/stat after the command name
// (f[1] ppid, f[11] utime, f[12] stime, f[13] cutime, f[14] cstime).
func procStat(pid int) ([]string, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, errors.New("bad /proc stat")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 15 {
		return nil, errors.New("short /proc stat")
	}
	return f, nil
}
