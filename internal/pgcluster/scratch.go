package pgcluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5"

	"pbem/migrations"
)

// ScratchDB creates a fresh migrated database named prefix plus random
// hex on the server of adminURL (a URL of that server on which CREATE
// DATABASE may run), for the load and page benchmarks. It returns its URL
// and a function that drops it. The prefix makes databases left by an
// interrupted run easy to find.
func ScratchDB(ctx context.Context, adminURL, prefix string) (string, func(), error) {
	admin, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("connect: %w", err)
	}
	b := make([]byte, 5)
	if _, err := rand.Read(b); err != nil {
		admin.Close(ctx)
		return "", nil, err
	}
	name := prefix + hex.EncodeToString(b)
	_, err = admin.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
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
		_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
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
