package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Settings is what a game lets its creator choose, as a lobby offers it
// and as the service checks a request: the player range and the options.
// Game.Settings gives it in a language, for the labels and help lines.
type Settings struct {
	// MinPlayers and MaxPlayers bound the number of seats.
	MinPlayers int `json:"min_players"`
	MaxPlayers int `json:"max_players"`
	// Options lists every option, in the order a lobby shows them.
	Options []OptionSpec `json:"options"`
}

// OptionType is the kind of value an option takes.
type OptionType string

// The kinds of option.
const (
	// OptionBool is true or false: a checkbox.
	OptionBool OptionType = "bool"
	// OptionChoice is one of Values: a list to choose from.
	OptionChoice OptionType = "choice"
	// OptionNumber is a whole number from Min to Max.
	OptionNumber OptionType = "number"
	// OptionDocument is a JSON document (a custom card set): a file to upload.
	OptionDocument OptionType = "document"
)

// OptionSpec describes one option: its key in the options JSON object,
// its type and default, the values it allows, the player counts that
// allow it, and its label and help line in the requested language.
type OptionSpec struct {
	Key  string     `json:"key"`
	Type OptionType `json:"type"`
	// Default is the value when the option is absent: false for a bool,
	// one of Values for a choice, nil for a document.
	Default any `json:"default"`
	// Values are the allowed values of a choice.
	Values []OptionValue `json:"values,omitempty"`
	// Min and Max bound a number.
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
	// Players lists the player counts that allow the option; empty means
	// every count of the game.
	Players []int `json:"players,omitempty"`
	// Forced lists the player counts that impose a bool option (on, and
	// not to be turned off): a lobby shows it checked and fixed.
	Forced []int `json:"forced,omitempty"`
	// Label and Help name and explain the option in the language asked.
	Label string `json:"label"`
	Help  string `json:"help"`
}

// OptionValue is one value of a choice, with its label.
type OptionValue struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// Allows reports whether a game of players may set the option.
func (o OptionSpec) Allows(players int) bool {
	return len(o.Players) == 0 || slices.Contains(o.Players, players)
}

// IsForced reports whether a game of players imposes the option.
func (o OptionSpec) IsForced(players int) bool { return slices.Contains(o.Forced, players) }

// For lists the options a game of players may set, in order.
func (s Settings) For(players int) []OptionSpec {
	var out []OptionSpec
	for _, o := range s.Options {
		if o.Allows(players) {
			out = append(out, o)
		}
	}
	return out
}

// Option returns the option key, or false.
func (s Settings) Option(key string) (OptionSpec, bool) {
	for _, o := range s.Options {
		if o.Key == key {
			return o, true
		}
	}
	return OptionSpec{}, false
}

// CheckOptions checks a setup's player count and options against the
// game's Settings: the count in range, an object of known keys, values of
// the right type, and options that players allow. Its *RuleError (code
// CodeBadOptions) names the option at fault in Field and is written in
// lang. Combinations are the engine's to check, in New.
func CheckOptions(s Settings, raw json.RawMessage, players int, lang string) error {
	p := texts.In(lang)
	fail := func(field, key string, args ...any) error {
		msg := p.T("option."+key, args...)
		if field != "" {
			msg = p.T("option.field", field, msg)
		}
		return &RuleError{Code: CodeBadOptions, Message: msg, Field: field}
	}
	if players < s.MinPlayers || players > s.MaxPlayers {
		return fail("players", "players", s.MinPlayers, s.MaxPlayers, players)
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &obj); err != nil || obj == nil {
		return fail("options", "object")
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		o, ok := s.Option(k)
		if !ok {
			var known []string
			for _, o := range s.Options {
				known = append(known, o.Key)
			}
			if len(known) == 0 {
				known = []string{"-"}
			}
			return fail(k, "unknown", strings.Join(known, ", "))
		}
		v := obj[k]
		switch o.Type {
		case OptionBool:
			var b bool
			if err := json.Unmarshal(v, &b); err != nil {
				return fail(k, "bool")
			}
			if !b {
				if o.IsForced(players) {
					return fail(k, "forced", players)
				}
				continue // off is always allowed
			}
		case OptionChoice:
			var c string
			err := json.Unmarshal(v, &c)
			var vals []string
			found := false
			for _, x := range o.Values {
				vals = append(vals, x.Value)
				found = found || x.Value == c
			}
			if err != nil || !found {
				return fail(k, "choice", strings.Join(vals, ", "))
			}
		case OptionNumber:
			var n int
			if err := json.Unmarshal(v, &n); err != nil || n < o.Min || n > o.Max {
				return fail(k, "number", o.Min, o.Max)
			}
		case OptionDocument:
			var d map[string]json.RawMessage
			if err := json.Unmarshal(v, &d); err != nil || d == nil {
				return fail(k, "document")
			}
		}
		if !o.Allows(players) {
			counts := make([]string, len(o.Players))
			for i, n := range o.Players {
				counts[i] = fmt.Sprint(n)
			}
			return fail(k, "players_only", players, strings.Join(counts, ", "))
		}
	}
	return nil
}
