package main

import (
	"bytes"
	"encoding/json"
	mrand "math/rand/v2"
	"testing"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events/play"
)

// lordsViews plays a Lords of Scotland game of random moves and returns
// the JSON of every view the API would send along the way (each seat to
// move, before its move), as the server writes it.
func lordsViews(t testing.TB, moves int) []*play.View {
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
	var out []*play.View
	for version := int64(1); version <= int64(moves) && len(st.ToMove()) > 0; version++ {
		seat := st.ToMove()[rng.IntN(len(st.ToMove()))]
		legal := st.Legal(seat)
		out = append(out, &play.View{GameID: "0123456789abcdef", Seat: seat, Version: version, Status: "active",
			ToMove: st.ToMove(), LegalMoves: legal, State: st.View(seat)})
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

// TestViewDecodeRealViews reads real Lords of Scotland views into one
// reused view: each gets the seat, version, status, seats to move and the
// legal moves, byte for byte as the server wrote them, owned by the view.
func TestViewDecodeRealViews(t *testing.T) {
	t.Parallel()
	views := lordsViews(t, 60)
	if len(views) < 20 {
		t.Fatalf("only %d views", len(views))
	}
	var v view
	var d viewDecoder
	for i, want := range views {
		data, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.decode(&v, data); err != nil {
			t.Fatalf("view %d: %v", i, err)
		}
		if v.Seat != want.Seat || v.Version != want.Version || v.Status != want.Status ||
			len(v.ToMove) != len(want.ToMove) || len(v.LegalMoves) != len(want.LegalMoves) || len(v.LegalMoves) == 0 {
			t.Fatalf("view %d decoded as %+v, want %+v", i, v, want)
		}
		for j, m := range want.LegalMoves {
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(v.LegalMoves[j], b) {
				t.Fatalf("view %d: legal move %d is %s, want %s", i, j, v.LegalMoves[j], b)
			}
		}
		first := string(v.LegalMoves[0])
		clear(data)
		if string(v.LegalMoves[0]) != first {
			t.Fatal("the legal moves alias the decoded data")
		}
	}
}

// TestViewDecodeSummary reads a game's summary after a view: the view's
// seat and legal moves do not linger.
func TestViewDecodeSummary(t *testing.T) {
	t.Parallel()
	v := view{Seat: 2, LegalMoves: []json.RawMessage{json.RawMessage(`{}`)}}
	summary := `{"id":"g","game":"lords","status":"finished","version":9,"to_move":[],"seats":[{"seat":0,"name":"Ann"}],"deadline":null}`
	var d viewDecoder
	if err := d.decode(&v, []byte(summary)); err != nil {
		t.Fatal(err)
	}
	if v.Seat != -1 || v.Version != 9 || v.Status != "finished" || len(v.ToMove) != 0 || len(v.LegalMoves) != 0 {
		t.Fatalf("summary decoded as %+v", v)
	}
}

// TestViewDecodeForms reads the fields in any order, among members it
// skips, and stops once it has them: what follows is not read.
func TestViewDecodeForms(t *testing.T) {
	t.Parallel()
	var d viewDecoder
	for _, data := range []string{
		`{"state":{"a":[1,{"b":"}"}]},"legal_moves":[{"x":[true,null,1.5e3,"\u00e9"]},{}],"to_move":[1,0],"status":"active","version":-2,"seat":1}`,
		` { "seat" : 1 , "version":-2,"status":"active","to_move":[ 1 , 0 ],"legal_moves":[{"x":[true,null,1.5e3,"\u00e9"]},{}],"state":{"not json`,
	} {
		var v view
		if err := d.decode(&v, []byte(data)); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if v.Seat != 1 || v.Version != -2 || v.Status != "active" || len(v.ToMove) != 2 || v.ToMove[1] != 0 ||
			len(v.LegalMoves) != 2 || string(v.LegalMoves[0]) != `{"x":[true,null,1.5e3,"\u00e9"]}` {
			t.Fatalf("%s decoded as %+v", data, v)
		}
	}
}

// TestViewDecodeRefuses gives an error for answers that are not a view:
// not JSON, not an object (null included, which encoding/json reads as
// nothing), a field of the wrong type, or a view cut short before its
// fields are all read.
func TestViewDecodeRefuses(t *testing.T) {
	t.Parallel()
	cases := []string{``, `null`, ` null`, `[1]`, `{`, `{"seat"`, `{"seat":}`, `{"seat":1,}`, `{"seat":1 "version":2}`,
		`{"seat":"1"}`, `{"seat":1.5}`, `{"to_move":{}}`, `{"legal_moves":"x"}`, `{"legal_moves":[{]}`, `{"deadline":nul,"seat":1}`}
	views := lordsViews(t, 1)
	data, err := json.Marshal(views[0])
	if err != nil {
		t.Fatal(err)
	}
	end := bytes.Index(data, []byte(`,"state":`))
	for n := 0; n < end; n += 7 {
		cases = append(cases, string(data[:n]))
	}
	var d viewDecoder
	for _, c := range cases {
		var v view
		if err := d.decode(&v, []byte(c)); err == nil {
			t.Errorf("%.60s: decoded as %+v, want an error", c, v)
		}
	}
}
