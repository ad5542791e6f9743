package main

import (
	"bytes"
	"encoding/json"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events/game"
)

// TestLoadViewDecode reads the fields a load client needs from a view (up
// to its state, which is left unread) and from a summary (whole).
func TestLoadViewDecode(t *testing.T) {
	var v loadView
	view := `{"game_id":"g","seat":2,"version":7,"status":"active","to_move":[2,3],"legal_moves":[{"type":"a"},{"type":"b"}],"state":{"x":[1,2,3]},"deadline":null}`
	if err := v.decode([]byte(view)); err != nil {
		t.Fatal(err)
	}
	if v.Seat != 2 || v.Version != 7 || v.Status != "active" || len(v.ToMove) != 2 || v.ToMove[1] != 3 ||
		len(v.LegalMoves) != 2 || string(v.LegalMoves[1]) != `{"type":"b"}` {
		t.Fatalf("view decoded as %+v", v)
	}
	s := loadView{Seat: -1}
	summary := `{"id":"g","game":"lords","status":"finished","version":9,"to_move":[],"seats":[{"seat":0,"name":"Ann"}],"deadline":null}`
	if err := s.decode([]byte(summary)); err != nil {
		t.Fatal(err)
	}
	if s.Seat != -1 || s.Version != 9 || s.Status != "finished" || len(s.ToMove) != 0 || s.LegalMoves != nil {
		t.Fatalf("summary decoded as %+v", s)
	}
	if err := s.decode([]byte(`[1]`)); err == nil {
		t.Fatal("an array decoded as a view")
	}
}

// lordsViews plays a Lords of Scotland game of random moves and returns
// the JSON of every view the API would send along the way (each seat to
// move, before its move), as the server writes it.
func lordsViews(t testing.TB, moves int) [][]byte {
	t.Helper()
	g, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.New(engine.Setup{Players: 4, Seed: engine.Seed{7}, Names: []string{"Ann", "Bob", "Cid", "Dee"}})
	if err != nil {
		t.Fatal(err)
	}
	rng := mrand.New(mrand.NewPCG(3, 4))
	var out [][]byte
	for version := int64(1); version <= int64(moves) && len(st.ToMove()) > 0; version++ {
		seat := st.ToMove()[rng.IntN(len(st.ToMove()))]
		legal := st.Legal(seat)
		v := &game.View{GameID: "0123456789abcdef", Seat: seat, Version: version, Status: "active",
			ToMove: st.ToMove(), LegalMoves: legal, State: st.View(seat)}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, append(b, '\n'))
		evs, err := st.Decide(seat, legal[rng.IntN(len(legal))])
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			st.Apply(e)
		}
	}
	return out
}

// sameLoadView reports whether got holds what encoding/json reads into want.
func sameLoadView(got, want *loadView) bool {
	if got.Seat != want.Seat || got.Version != want.Version || got.Status != want.Status ||
		!slices.Equal(got.ToMove, want.ToMove) || len(got.LegalMoves) != len(want.LegalMoves) {
		return false
	}
	for i := range got.LegalMoves {
		if !bytes.Equal(got.LegalMoves[i], want.LegalMoves[i]) {
			return false
		}
	}
	return true
}

// TestLoadViewDecodeRealViews reads real Lords of Scotland views as
// encoding/json does: as the server orders their fields, and in another
// order (state first), into one reused loadView.
func TestLoadViewDecodeRealViews(t *testing.T) {
	views := lordsViews(t, 60)
	if len(views) < 20 {
		t.Fatalf("only %d views", len(views))
	}
	var v loadView
	for i, data := range views {
		var want loadView
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if len(want.LegalMoves) == 0 {
			t.Fatalf("view %d has no legal moves", i)
		}
		// Sorted keys: deadline, game_id, legal_moves, seat, state, status, ...
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(data, &fields); err != nil {
			t.Fatal(err)
		}
		sorted, err := json.Marshal(fields)
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range [][]byte{data, sorted} {
			v.reset()
			if err := v.decode(form); err != nil {
				t.Fatalf("view %d: %v", i, err)
			}
			if !sameLoadView(&v, &want) {
				t.Fatalf("view %d decoded as %+v, want %+v", i, v, want)
			}
		}
		// The legal moves are the view's own: the data may be reused.
		moves := string(v.LegalMoves[0])
		clear(data)
		if string(v.LegalMoves[0]) != moves {
			t.Fatal("the legal moves alias the decoded data")
		}
	}
}

// TestLoadViewDecodeForms reads JSON forms the server does not write but
// a valid answer may hold, as encoding/json reads them.
func TestLoadViewDecodeForms(t *testing.T) {
	for _, data := range []string{
		` { "state" : {"a":[1,{"b":"}"}],"c":"\\\""} , "se\u0061t" : 1 , "version":-2,"status":"act\u0069ve",` +
			`"to_move":[ 1 , 0 ],"legal_moves":[ {"x": [true,false,null,1.5e3,-0.25E-2,"\u00e9"]} , {} ] } `,
		`{"legal_moves":null,"to_move":null,"status":null,"seat":null,"version":3}`,
		`{"legal_moves":[],"to_move":[],"status":"finished","extra":[[[]]],"seat":0,"version":0}`,
		`{}`,
	} {
		var got, want loadView
		got.Seat, want.Seat = 9, 9
		if err := json.Unmarshal([]byte(data), &want); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if err := got.decode([]byte(data)); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if !sameLoadView(&got, &want) {
			t.Fatalf("%s decoded as %+v, want %+v", data, got, want)
		}
	}
}

// TestLoadViewDecodeMalformed gives an error, never a panic, for what
// encoding/json would refuse before the decoder has its five fields, and
// for every cut of a real view before them.
func TestLoadViewDecodeMalformed(t *testing.T) {
	for _, data := range []string{
		``, `null`, `[1]`, `{`, `{"seat"`, `{"seat":}`, `{"seat":1,}`, `{"seat":1 "version":2}`,
		`{"seat":1.5}`, `{"seat":"1"}`, `{"version":99999999999999999999}`, `{"status":3}`,
		`{"to_move":{}}`, `{"to_move":[1,"a"]}`, `{"legal_moves":"x"}`, `{"legal_moves":[{]}`,
		`{"state":[1,2}`, `{"state":"\x"}`, `{"state":"\u12"}`, "{\"state\":\"a\nb\"}", `{"state":01}`,
		`{"state":-}`, `{"state":1.}`, `{"state":1e}`, `{"state":tru}`, `{"state":nul,"seat":1}`,
		`{"seat":1}x`, strings.Repeat("[", 20000),
		`{"state":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`,
	} {
		var v loadView
		if err := v.decode([]byte(data)); err == nil {
			t.Errorf("%.60s: decoded as %+v, want an error", data, v)
		} else if json.Valid([]byte(data)) && data != "null" && !strings.Contains(data, "[[[[") {
			// Valid JSON refused: only for a field of the wrong type (or
			// null, which encoding/json reads as nothing, and an answer
			// should not be).
			var w loadView
			if json.Unmarshal([]byte(data), &w) == nil {
				t.Errorf("%.60s: %v, but encoding/json reads it", data, err)
			}
		}
	}
	view := lordsViews(t, 1)[0]
	end := bytes.Index(view, []byte(`,"state":`))
	for n := range end {
		var v loadView
		if err := v.decode(view[:n]); err == nil {
			t.Fatalf("a view cut after %d bytes decoded as %+v", n, v)
		}
	}
	var v loadView
	if err := v.decode(view[:end+1]); err != nil || len(v.LegalMoves) == 0 {
		t.Fatalf("a view cut at its state: %v, %+v (the decoder stops before the state)", err, v)
	}
}

// TestJSONStringField reads the id of a created game.
func TestJSONStringField(t *testing.T) {
	id, err := jsonStringField([]byte(`{"seats":[{"seat":0,"name":"A\"nn"}],"id":"g\u0031","admin_token":"t"}`), "id")
	if err != nil || id != "g1" {
		t.Fatalf("got %q %v", id, err)
	}
	if _, err := jsonStringField([]byte(`{"ids":"x"}`), "id"); err == nil {
		t.Fatal("a missing id read")
	}
}

// BenchmarkLoadViewDecode reads a real view as a load client does, beside
// encoding/json reading the same fields.
func BenchmarkLoadViewDecode(b *testing.B) {
	view := lordsViews(b, 1)[0]
	b.Run("scan", func(b *testing.B) {
		b.SetBytes(int64(len(view)))
		var v loadView
		for b.Loop() {
			v.reset()
			if err := v.decode(view); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(view)))
		for b.Loop() {
			var v loadView
			if err := json.Unmarshal(view, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
