package lords

import "pbem/engine"

// Settings offers 2 to 5 players and the bruce option, labelled in lang.
func (g *Game) Settings(lang string) engine.Settings {
	return engine.Settings{MinPlayers: 2, MaxPlayers: 5, Options: []engine.OptionSpec{
		{Key: "bruce", Type: engine.OptionBool, Default: false, Label: texts.T(lang, "option.bruce"), Help: texts.T(lang, "option.bruce.help")},
	}}
}
