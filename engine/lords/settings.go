package lords

import "pbem/engine"

// bruceTexts are the label and help line of the bruce option in en, fr, it.
var bruceTexts = [3][2]string{
	{"Clan Bruce", "Adds the two Clan Bruce cards to the deck (a Bruce counts as any clan when its power is used)."},
	{"Clan Bruce", "Ajoute au paquet les deux cartes du clan Bruce (un Bruce compte pour n'importe quel clan quand son pouvoir est utilisé)."},
	{"Clan Bruce", "Aggiunge al mazzo le due carte del clan Bruce (un Bruce vale come qualsiasi clan quando si usa il suo potere)."},
}

// Settings offers 2 to 5 players and the bruce option, labelled in lang.
func (g *Game) Settings(lang string) engine.Settings {
	t := bruceTexts[engine.LangIndex(lang)]
	return engine.Settings{MinPlayers: 2, MaxPlayers: 5, Options: []engine.OptionSpec{
		{Key: "bruce", Type: engine.OptionBool, Default: false, Label: t[0], Help: t[1]},
	}}
}
