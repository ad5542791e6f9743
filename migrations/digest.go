package migrations

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io/fs"
	"sort"
)

// Digest is a hex SHA-256 of every embedded migration file, names and
// contents in name order: two binaries with the same digest migrate a
// database to the same schema. pgtest names its template database by it,
// so that a template built from another set of migrations is never used.
func Digest() (string, error) {
	names, err := fs.Glob(files, "*.sql")
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		b, err := files.ReadFile(n)
		if err != nil {
			return "", err
		}
		// Each name and content length-prefixed, so that no two sets of
		// files hash alike by moving bytes from one to the next.
		for _, part := range [][]byte{[]byte(n), b} {
			h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(part))))
			h.Write(part)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
