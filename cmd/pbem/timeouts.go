package main

import (
	"fmt"
	"time"

	"pbem/api"
)

// httpTimeouts reads the HTTP server's timeouts from cfg:
// PBEM_READ_HEADER_TIMEOUT, PBEM_READ_TIMEOUT, PBEM_WRITE_TIMEOUT and
// PBEM_IDLE_TIMEOUT, each a Go duration ("30s", "2m"); unset, the value of
// api.DefaultTimeouts. A value that is not a positive duration is an error
// naming the variable.
func httpTimeouts(cfg config) (api.Timeouts, error) {
	t := api.DefaultTimeouts
	for _, v := range []struct {
		key, value string
		dst        *time.Duration
	}{
		{"PBEM_READ_HEADER_TIMEOUT", cfg.ReadHeaderTimeout, &t.ReadHeader},
		{"PBEM_READ_TIMEOUT", cfg.ReadTimeout, &t.Read},
		{"PBEM_WRITE_TIMEOUT", cfg.WriteTimeout, &t.Write},
		{"PBEM_IDLE_TIMEOUT", cfg.IdleTimeout, &t.Idle},
	} {
		s := v.value
		if s == "" {
			continue
		}
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return t, fmt.Errorf("%s=%q: give a positive duration like 30s or 2m", v.key, s)
		}
		*v.dst = d
	}
	return t, nil
}
