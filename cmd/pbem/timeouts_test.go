package main

import (
	"strings"
	"testing"
	"time"

	"pbem/api"
)

func TestHTTPTimeoutsFromEnvironment(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) config { return loadConfig(func(k string) string { return m[k] }) }
	got, err := httpTimeouts(env(nil))
	if err != nil || got != api.DefaultTimeouts {
		t.Fatalf("defaults: %+v, %v", got, err)
	}
	got, err = httpTimeouts(env(map[string]string{"PBEM_READ_TIMEOUT": "5s", "PBEM_WRITE_TIMEOUT": " 2m ",
		"PBEM_IDLE_TIMEOUT": "90s", "PBEM_READ_HEADER_TIMEOUT": "3s"}))
	want := api.Timeouts{ReadHeader: 3 * time.Second, Read: 5 * time.Second, Write: 2 * time.Minute, Idle: 90 * time.Second}
	if err != nil || got != want {
		t.Fatalf("set: %+v, %v", got, err)
	}
	for _, bad := range []string{"soon", "-1s", "0", "10"} {
		if _, err := httpTimeouts(env(map[string]string{"PBEM_IDLE_TIMEOUT": bad})); err == nil || !strings.Contains(err.Error(), "PBEM_IDLE_TIMEOUT") {
			t.Errorf("PBEM_IDLE_TIMEOUT=%q: %v", bad, err)
		}
	}
	srv := api.NewHTTPServer(nil, want)
	if srv.ReadTimeout != want.Read || srv.WriteTimeout != want.Write || srv.IdleTimeout != want.Idle || srv.ReadHeaderTimeout != want.ReadHeader {
		t.Fatalf("server: %+v", srv)
	}
}
