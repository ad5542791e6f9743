package engine

import (
	"encoding/json"
	"errors"
	"testing"
)

// The catalog has the same keys and arguments in en, fr and it.
func TestCatalogCheck(t *testing.T) {
	if err := texts.Check(); err != nil {
		t.Fatal(err)
	}
}

// CheckOptions explains a refused setup in the language asked, naming the
// field at fault.
func TestCheckOptionsSpeaksTheLanguage(t *testing.T) {
	s := Settings{MinPlayers: 2, MaxPlayers: 4, Options: []OptionSpec{
		{Key: "long", Type: OptionBool, Default: false, Players: []int{3, 4}},
		{Key: "speed", Type: OptionNumber, Min: 1, Max: 3},
	}}
	for _, tc := range []struct {
		raw     string
		players int
		lang    string
		field   string
		want    string
	}{
		{`{}`, 5, "en", "players", "players: this game is for 2 to 4 players, not 5"},
		{`{}`, 5, "fr", "players", "players\u00a0: ce jeu se joue de 2 à 4 joueurs, pas 5"},
		{`{}`, 1, "it", "players", "players: questo gioco si gioca da 2 a 4 giocatori, non 1"},
		{`[1]`, 3, "fr", "options", "options\u00a0: donnez un objet JSON d'options"},
		{`{"x":1}`, 3, "en", "x", "x: unknown option; this game has: long, speed"},
		{`{"long":true}`, 2, "fr", "long", "long\u00a0: pas pour 2 joueurs (seulement pour 3, 4)"},
		{`{"speed":7}`, 3, "it", "speed", "speed: indicate un numero intero da 1 a 3"},
		{`{"long":"yes"}`, 3, "de", "long", "long: give true or false"},
	} {
		err := CheckOptions(s, json.RawMessage(tc.raw), tc.players, tc.lang)
		var re *RuleError
		if !errors.As(err, &re) || re.Code != CodeBadOptions || re.Field != tc.field || re.Message != tc.want {
			t.Errorf("%s %d %s: %v, want %s: %q", tc.raw, tc.players, tc.lang, err, tc.field, tc.want)
		}
	}
	if err := CheckOptions(s, json.RawMessage(`{"long":true,"speed":2}`), 3, "fr"); err != nil {
		t.Errorf("good options refused: %v", err)
	}
}
