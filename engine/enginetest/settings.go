package enginetest

import (
	"encoding/json"
	"errors"
	"fmt"

	"pbem/engine"
)

// CheckSettings checks a game's Settings, as RandomGames does first: in
// every language the description is well formed (a sane player range,
// unique keys, a label and help line for each option, defaults of the
// option's type), New refuses the counts outside the range, every option
// a player count allows is dealt alone with a non-default value (or
// refused by a *RuleError whose Field names it), and CheckOptions refuses
// an option at a count that does not allow it, naming it.
func CheckSettings(g engine.Game) error {
	var seed engine.Seed
	for _, lang := range []string{"en", "fr", "it"} {
		s := g.Settings(lang)
		if s.MinPlayers < 1 || s.MaxPlayers < s.MinPlayers {
			return fmt.Errorf("settings(%s): player range %d..%d", lang, s.MinPlayers, s.MaxPlayers)
		}
		seen := map[string]bool{}
		for _, o := range s.Options {
			if o.Key == "" || seen[o.Key] {
				return fmt.Errorf("settings(%s): empty or repeated key %q", lang, o.Key)
			}
			seen[o.Key] = true
			if o.Label == "" || o.Help == "" {
				return fmt.Errorf("settings(%s): option %s has no label or help", lang, o.Key)
			}
			if err := checkDefault(o); err != nil {
				return fmt.Errorf("settings(%s): option %s: %w", lang, o.Key, err)
			}
		}
		for _, n := range []int{s.MinPlayers - 1, s.MaxPlayers + 1} {
			if _, err := g.New(engine.Setup{Players: n, Seed: seed, Language: lang}); err == nil {
				return fmt.Errorf("new accepts %d players, outside %d..%d", n, s.MinPlayers, s.MaxPlayers)
			}
			if err := engine.CheckOptions(s, nil, n, lang); fieldOf(err) != "players" {
				return fmt.Errorf("CheckOptions with %d players: %v, want an error on players", n, err)
			}
		}
		for n := s.MinPlayers; n <= s.MaxPlayers; n++ {
			if _, err := g.New(engine.Setup{Players: n, Seed: seed, Language: lang}); err != nil {
				return fmt.Errorf("new with %d players and no options: %w", n, err)
			}
			for _, o := range s.Options {
				v, ok := sample(o)
				if !ok {
					continue
				}
				raw, _ := json.Marshal(map[string]any{o.Key: v})
				err := engine.CheckOptions(s, raw, n, lang)
				if !o.Allows(n) {
					if fieldOf(err) != o.Key {
						return fmt.Errorf("%d players: option %s not allowed, CheckOptions gave %v", n, o.Key, err)
					}
					continue
				}
				if err != nil {
					return fmt.Errorf("%d players: option %s=%v refused by CheckOptions: %w", n, o.Key, v, err)
				}
				if _, err := g.New(engine.Setup{Players: n, Options: raw, Seed: seed, Language: lang}); err != nil && fieldOf(err) != o.Key {
					return fmt.Errorf("%d players: option %s=%v refused without naming it: %v", n, o.Key, v, err)
				}
			}
		}
	}
	return nil
}

// checkDefault checks that o's default is of its type.
func checkDefault(o engine.OptionSpec) error {
	switch o.Type {
	case engine.OptionBool:
		if b, ok := o.Default.(bool); !ok || b {
			return errors.New("a bool's default must be false")
		}
	case engine.OptionChoice:
		d, _ := o.Default.(string)
		for _, v := range o.Values {
			if v.Label == "" {
				return fmt.Errorf("value %q has no label", v.Value)
			}
			if v.Value == d {
				return nil
			}
		}
		return fmt.Errorf("default %v is not one of the values", o.Default)
	case engine.OptionNumber:
		d, ok := o.Default.(int)
		if !ok || d < o.Min || d > o.Max {
			return fmt.Errorf("default %v is not a number in %d..%d", o.Default, o.Min, o.Max)
		}
	case engine.OptionDocument:
		if o.Default != nil {
			return errors.New("a document has no default")
		}
	default:
		return fmt.Errorf("unknown type %q", o.Type)
	}
	return nil
}

// sample is a value of o other than its default (false for a document:
// none is known here).
func sample(o engine.OptionSpec) (any, bool) {
	switch o.Type {
	case engine.OptionBool:
		return true, true
	case engine.OptionChoice:
		for _, v := range o.Values {
			if v.Value != o.Default {
				return v.Value, true
			}
		}
	case engine.OptionNumber:
		if o.Max != o.Default {
			return o.Max, true
		}
		return o.Min, true
	}
	return nil, false
}

// fieldOf is the Field of a *RuleError, "" for anything else.
func fieldOf(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Field
	}
	return ""
}
