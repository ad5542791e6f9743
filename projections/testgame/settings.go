package testgame

import "pbem/engine"

// Settings offers 2 to 5 players, the target total and the number of
// rounds, and forced draws (labels in English whatever the language: a
// test game).
func (Game) Settings(string) engine.Settings {
	return engine.Settings{MinPlayers: 2, MaxPlayers: 5, Options: []engine.OptionSpec{
		{Key: "target", Type: engine.OptionNumber, Default: 40, Min: 1, Max: 1000, Label: "Target", Help: "The total that ends the game."},
		{Key: "rounds", Type: engine.OptionNumber, Default: 6, Min: 1, Max: 50, Label: "Rounds", Help: "The most rounds a game lasts."},
		{Key: "forced", Type: engine.OptionBool, Default: false, Label: "Forced draws", Help: "A seat with an empty hand draws without being asked."},
	}}
}
