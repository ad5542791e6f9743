package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5"

	"pbem/migrations"
)

// scratchDB creates a fresh migrated database on the server of adminURL
// (a URL of that server on which CREATE DATABASE may run) and returns its
// URL and a function that drops it. Its name starts with pbem_load_, so
// that databases left by an interrupted run are easy to find.
func scratchDB(ctx context.Context, adminURL string) (string, func(), error) {
	admin, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("connect: %w", err)
	}
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	name := "pbem_load_" + hex.EncodeToString(b)
	_, err = admin.Exec(ctx, "CREATE DATABASE "+name)
	admin.Close(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	drop := func() {
		c, err := pgx.Connect(context.Background(), adminURL)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		drop()
		return "", nil, err
	}
	u.Path = "/" + name
	if err := migrations.Up(u.String()); err != nil {
		drop()
		return "", nil, err
	}
	return u.String(), drop, nil
}

// redactURL returns s without its password, for printing.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "?"
	}
	return u.Redacted()
}
