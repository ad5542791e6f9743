// Package systest holds pbem's system tests: real `pbem serve` processes
// built from the tree, private PostgreSQL clusters of the tests' own (started
// with the machine's initdb and pg_ctl, never the shared server), and a
// loopback SMTP sink (notify/smtpsink). Clients play games over the HTTP API
// while the tests break things: SIGKILL of the server, an immediate stop of
// PostgreSQL, a dump restored into another cluster, and (build tag ha, `make
// test-ha`) the loss of a pg_auto_failover primary.
//
// After each, the tests check the promises of the design: every move the API
// acknowledged is in the store, `pbem verify --all` passes, and every email
// due went out, at most once more per crash.
//
// The package has no code of its own outside its tests.
package systest
