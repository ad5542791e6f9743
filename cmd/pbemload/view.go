package main

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/go-json-experiment/json/jsontext"
)

// view is what a player keeps of a seat's view (or of a game's summary,
// which has no seat and no legal moves) between moves.
type view struct {
	Seat       int               `json:"seat"`
	Version    int64             `json:"version"`
	Status     string            `json:"status"`
	ToMove     []int             `json:"to_move"`
	LegalMoves []json.RawMessage `json:"legal_moves"`
}

// viewFields is how many fields a view has.
const viewFields = 5

// viewDecoder reads views, reusing its buffers from one to the next.
//
// A view lists its legal moves before its state, which is most of its
// bytes and which a player of random moves does not read: the decoder
// reads the members one by one (jsontext, the tokenizer under
// encoding/json/v2) and stops when it has the view's fields. Unmarshal
// would check and skip the whole state: in a CPU profile of pbemload,
// that was half of the players' CPU.
type viewDecoder struct {
	rd  bytes.Reader
	dec jsontext.Decoder
}

// decode replaces v with the view or summary in data, keeping v's slices
// for reuse. Fields are read as encoding/json reads them, in any order;
// what follows the last of them is not read. Fields data lacks are left
// empty (Seat -1). The legal moves are copies: data may be reused after
// decode. Member names are matched as the server writes them (no escapes).
func (d *viewDecoder) decode(v *view, data []byte) error {
	*v = view{Seat: -1, ToMove: v.ToMove[:0], LegalMoves: v.LegalMoves[:0]}
	d.rd.Reset(data)
	d.dec.Reset(&d.rd)
	tok, err := d.dec.ReadToken()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		return errors.New("the answer is not a JSON object")
	}
	for seen := 0; seen < viewFields && d.dec.PeekKind() != '}'; {
		name, err := d.dec.ReadValue()
		if err != nil {
			return err
		}
		var dst any
		switch string(name) { // before the next read, which may reuse name's bytes
		case `"seat"`:
			dst = &v.Seat
		case `"version"`:
			dst = &v.Version
		case `"status"`:
			dst = &v.Status
		case `"to_move"`:
			dst = &v.ToMove
		case `"legal_moves"`:
			dst = &v.LegalMoves
		default:
			if err := d.dec.SkipValue(); err != nil {
				return err
			}
			continue
		}
		seen++
		val, err := d.dec.ReadValue()
		if err != nil {
			return err
		}
		if err := json.Unmarshal(val, dst); err != nil {
			return err
		}
	}
	return nil
}
