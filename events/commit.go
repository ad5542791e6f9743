package events

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// Chain formats (see the package doc).
const (
	// FormatPlain: the data enters the hash in clear. Streams begun before
	// commitments keep it.
	FormatPlain = 1
	// FormatCommitted: the data enters the hash only as an HMAC under the
	// stream's CommitKey.
	FormatCommitted = 2
)

// CommitKey is a stream's commitment key (see the package doc). Keep it
// secret until the game has ended.
type CommitKey [32]byte

// commitKeyInfo is the HKDF info of CommitKeyFrom.
const commitKeyInfo = "pbem commit key v2"

// CommitKeyFrom derives a game's commitment key from its 32-byte seed:
// HKDF-SHA256 (RFC 5869) with the seed as input keying material, no salt
// and the info "pbem commit key v2". Knowing the key tells nothing of the
// seed.
func CommitKeyFrom(seed [32]byte) CommitKey {
	b, err := hkdf.Key(sha256.New, seed[:], nil, commitKeyInfo, len(CommitKey{}))
	if err != nil {
		// HKDF-SHA256 of 32 bytes from a 32-byte secret cannot fail.
		panic("events: hkdf: " + err.Error())
	}
	return CommitKey(b)
}

// Format is the chain format of a stream hashed with key k: FormatPlain
// for a nil key, else FormatCommitted.
func (k *CommitKey) Format() int {
	if k == nil {
		return FormatPlain
	}
	return FormatCommitted
}

// commitPrefix starts the input of every commitment (domain separation).
const commitPrefix = "pbem/events commit v2\x00"

// Commit returns M = HMAC-SHA256(key, "pbem/events commit v2" || 0x00 ||
// data), the commitment to an event's canonical data.
func Commit(key *CommitKey, data []byte) []byte {
	m := hmac.New(sha256.New, key[:])
	m.Write([]byte(commitPrefix))
	m.Write(data)
	return m.Sum(nil)
}

// CanonicalCommitted returns the format-2 canonical bytes of an event
// whose data's commitment (see Commit) is commit:
//
//	{"commit":"<hex>","format":2,"meta":{…},"recorded_at":…,"stream":…,"type":…,"version":N}
//
// the format-1 object of Canonical with "commit" in place of "data".
func CanonicalCommitted(e *Event, commit []byte) []byte {
	b := make([]byte, 0, 2*len(commit)+len(e.Stream)+len(e.Type)+len(e.Meta.Actor)+len(e.Meta.RequestID)+len(e.Meta.IdempotencyKey)+180)
	b = append(b, `{"commit":"`...)
	b = hex.AppendEncode(b, commit)
	b = append(b, `","format":`...)
	b = strconv.AppendInt(b, FormatCommitted, 10)
	return appendEnvelope(b, e)
}

// canonicalFor returns the canonical bytes of e, whose data is canonical
// already, in the format of key.
func canonicalFor(e *Event, key *CommitKey) []byte {
	if key == nil {
		return CanonicalPrepared(e)
	}
	return CanonicalCommitted(e, Commit(key, e.Data))
}

// HashEvent returns the hash of e after an event whose hash is prev, in the
// format of key (nil: format 1). It returns an *Error with CodeInvalid when
// e.Data is not valid JSON.
func HashEvent(prev []byte, e *Event, key *CommitKey) ([]byte, error) {
	data, err := CanonicalJSON(e.Data)
	if err != nil {
		return nil, err
	}
	c := *e
	c.Data = data
	return ChainHash(prev, canonicalFor(&c, key)), nil
}

// ChainPrepared fills in PrevHash and Hash of evs, prepared events of one
// append (see Prepare) that follow an event whose hash is prev, in the
// format of key: the one place where stores compute the chain.
func ChainPrepared(evs []Event, prev []byte, key *CommitKey) {
	for k := range evs {
		e := &evs[k]
		e.PrevHash = prev
		e.Hash = ChainHash(prev, canonicalFor(e, key))
		prev = e.Hash
	}
}
