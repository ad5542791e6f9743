package events

// VerifyChain checks the hash chain of one stream's events, given in version
// order from version 1: versions follow each other, each PrevHash is the
// previous event's Hash (GenesisHash for version 1), and each Hash is
// HashEvent(PrevHash, event, key): format 2 with the stream's key, format
// 1 without (nil). It returns nil or a *ChainError naming the first event
// that does not match. Stores implement Verify with it.
func VerifyChain(stream string, evs []Event, key *CommitKey) error {
	prev := GenesisHash()
	for i := range evs {
		e := &evs[i]
		want := int64(i) + 1
		if e.Stream != stream {
			return &ChainError{Stream: stream, Version: want, Reason: "event belongs to stream " + e.Stream}
		}
		if e.Version != want {
			return &ChainError{Stream: stream, Version: want, Reason: "version missing (found the next event at a later version)"}
		}
		if !hashEqual(e.PrevHash, prev) {
			return &ChainError{Stream: stream, Version: want, Reason: "prev_hash " + describe(e.PrevHash) + " is not the previous event's hash " + describe(prev)}
		}
		h, err := HashEvent(prev, e, key)
		if err != nil {
			return &ChainError{Stream: stream, Version: want, Reason: "cannot compute canonical bytes: " + err.Error()}
		}
		if !hashEqual(e.Hash, h) {
			return &ChainError{Stream: stream, Version: want, Reason: "hash " + describe(e.Hash) + " does not match the content (want " + describe(h) + ")"}
		}
		prev = e.Hash
	}
	return nil
}
