package lords

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// labeling is what a move needs to describe itself: the deck (to name
// cards), the players' names and the game's language. It is built once per
// state and never changed, so moves and clones share it.
type labeling struct {
	d     *deck
	names []string
	lang  string
	// plain: neither names nor a language were given (a game set up before
	// they existed); its result summary keeps the first wording.
	plain bool
}

// newLabeling normalises the language ("en", "fr" or "it"; anything else is
// "en").
func newLabeling(d *deck, names []string, lang string) *labeling {
	return &labeling{d: d, names: names, lang: normLang(lang), plain: len(names) == 0 && lang == ""}
}

// normLang is lang if the engine speaks it, else "en".
func normLang(lang string) string {
	switch l := strings.ToLower(strings.TrimSpace(lang)); l {
	case "fr", "it":
		return l
	}
	return "en"
}

// labels is the state's labeling (a state built without one, in a test,
// gets a fresh English one).
func (s *State) labels() *labeling {
	if s.lab != nil {
		return s.lab
	}
	return newLabeling(s.d, s.Names, s.Lang)
}

// player is the name of seat, or a neutral "Player N" (N from 1).
func (l *labeling) player(seat int) string {
	if seat >= 0 && seat < len(l.names) {
		if n := strings.TrimSpace(l.names[seat]); n != "" {
			return n
		}
	}
	return fmt.Sprintf(words(l.lang).player, seat+1)
}

// moveWords holds one language's move labels; the verbs follow the
// rulebooks (en, fr) and the Italian summary, as the play page said them.
type moveWords struct {
	player                      string // "Player %d"
	recruitUp, recruitDown      string // card, place / place
	musterUp, musterDown        string // card
	use, decline                string // card, power / card
	copy                        string // card, owner, power
	claim                       string // supporter
	cockburn                    string // supporter
	fergusson, wemyss, hiddenAt string // follower, owner / position
	summary, tie                string // winner, points / place
	turn, claimOne, claimTwo    string
	activate, target, muster    string // card, power / power / -
}

// words is the label catalog of lang (normalised).
func words(lang string) moveWords {
	switch lang {
	case "fr":
		return moveWords{
			player:      "Joueur %d",
			recruitUp:   "Recruter %[1]s, face visible (emplacement %[2]d)",
			recruitDown: "Recruter la recrue face cachée (emplacement %d)",
			musterUp:    "Lever %s face visible",
			musterDown:  "Lever %s face cachée",
			use:         "Utiliser le pouvoir de %[1]s : %[2]s",
			decline:     "Ne pas utiliser le pouvoir de %s",
			copy:        "Copier le pouvoir de %[1]s (%[2]s) : %[3]s",
			claim:       "Prendre le partisan %s",
			cockburn:    "Cockburn : l'échanger contre le partisan %s",
			fergusson:   "Fergusson : l'échanger contre %[1]s de %[2]s",
			wemyss:      "Wemyss : défausser %[1]s de %[2]s",
			hiddenAt:    "le suivant face cachée en position %d",
			summary:     "%[1]s gagne avec %[2]d points de partisans",
			tie:         " (égalité départagée par la meilleure place de la dernière manche : %d)",
			turn:        "Recrutez une carte ou levez un suivant",
			claimOne:    "Choisissez un partisan",
			claimTwo:    "Choisissez un partisan (Cochrane : deux)",
			activate:    "Utilisez ou non le pouvoir de %[1]s : %[2]s",
			target:      "Choisissez la cible du pouvoir copié : %s",
			muster:      "Makgill : levez un autre suivant",
		}
	case "it":
		return moveWords{
			player:      "Giocatore %d",
			recruitUp:   "Recluta %[1]s, scoperta (posto %[2]d)",
			recruitDown: "Recluta la carta coperta (posto %d)",
			musterUp:    "Schiera %s scoperta",
			musterDown:  "Schiera %s coperta",
			use:         "Usa il potere di %[1]s: %[2]s",
			decline:     "Non usare il potere di %s",
			copy:        "Copia il potere di %[1]s (%[2]s): %[3]s",
			claim:       "Prendi il sostenitore %s",
			cockburn:    "Cockburn: scambiala con il sostenitore %s",
			fergusson:   "Fergusson: scambiala con %[1]s di %[2]s",
			wemyss:      "Wemyss: scarta %[1]s di %[2]s",
			hiddenAt:    "il seguace coperto in posizione %d",
			summary:     "%[1]s vince con %[2]d punti di sostenitori",
			tie:         " (parità risolta dal miglior piazzamento nell'ultimo round: %d)",
			turn:        "Recluta una carta o schiera un seguace",
			claimOne:    "Scegli un sostenitore",
			claimTwo:    "Scegli un sostenitore (Cochrane: due)",
			activate:    "Usa o no il potere di %[1]s: %[2]s",
			target:      "Scegli il bersaglio del potere copiato: %s",
			muster:      "Makgill: schiera un altro seguace",
		}
	}
	return moveWords{
		player:      "Player %d",
		recruitUp:   "Recruit the face-up %[1]s (place %[2]d)",
		recruitDown: "Recruit the face-down card (place %d)",
		musterUp:    "Muster %s face-up",
		musterDown:  "Muster %s face-down",
		use:         "Use the power of %[1]s: %[2]s",
		decline:     "Do not use the power of %s",
		copy:        "Copy the power of %[1]s (%[2]s): %[3]s",
		claim:       "Claim the supporter %s",
		cockburn:    "Cockburn: swap it with the supporter %s",
		fergusson:   "Fergusson: swap it with %[1]s of %[2]s",
		wemyss:      "Wemyss: discard %[1]s of %[2]s",
		hiddenAt:    "the face-down follower at position %d",
		summary:     "%[1]s wins with %[2]d supporter strength",
		tie:         " (tie broken by a better place in the final round: %d)",
		turn:        "Recruit a card or muster a follower",
		claimOne:    "Choose a supporter to claim",
		claimTwo:    "Choose a supporter to claim (Cochrane: two)",
		activate:    "Use or decline the power of %[1]s: %[2]s",
		target:      "Choose the target of the copied power: %s",
		muster:      "Makgill: muster another follower",
	}
}

// powerText is the short text of a clan's power in lang (normalised),
// capitalised as a sentence.
func powerText(c Clan, lang string) string {
	switch lang {
	case "fr":
		switch c {
		case Scott:
			return "Copier le pouvoir d'un autre suivant face visible"
		case Makgill:
			return "Lever un autre suivant"
		case MacDonnell:
			return "Reste dans votre armée pour la manche suivante"
		case Wemyss:
			return "Défausser un autre suivant d'une armée"
		case Fergusson:
			return "Échanger cette carte avec un suivant adverse"
		case Forsyth:
			return "Piocher une carte"
		case Cockburn:
			return "Échanger cette carte avec un partisan"
		case Cochrane:
			return "Prendre deux partisans en fin de manche"
		case Bruce:
			return "Compte comme n'importe quel clan en fin de manche"
		}
	case "it":
		switch c {
		case Scott:
			return "Copia il potere di un altro seguace scoperto"
		case Makgill:
			return "Schiera un altro seguace"
		case MacDonnell:
			return "Resta nel tuo esercito per il round successivo"
		case Wemyss:
			return "Scarta un altro seguace da un esercito"
		case Fergusson:
			return "Scambia questa carta con un seguace avversario"
		case Forsyth:
			return "Pesca una carta"
		case Cockburn:
			return "Scambia questa carta con un sostenitore"
		case Cochrane:
			return "Prendi due sostenitori alla fine del round"
		case Bruce:
			return "Vale come qualsiasi clan alla fine del round"
		}
	default:
		switch c {
		case Scott:
			return "Copy the power of another face-up follower"
		case Makgill:
			return "Muster another follower"
		case MacDonnell:
			return "Stays in your army for the next round"
		case Wemyss:
			return "Discard another follower from any army"
		case Fergusson:
			return "Swap this card with an opponent's follower"
		case Forsyth:
			return "Draw a card"
		case Cockburn:
			return "Swap this card with a supporter"
		case Cochrane:
			return "Claim two supporters at the end of the round"
		case Bruce:
			return "Counts as any clan at the end of the round"
		}
	}
	return ""
}

// lowerFirst lowers the first letter of s ("Échanger" → "échanger").
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// describe is the label of m in its labeling's language.
func (m *Move) describe() string {
	l := m.lab
	w := words(l.lang)
	name := l.d.name
	power := func() string { return lowerFirst(powerText(m.power, l.lang)) }
	switch m.Type {
	case MoveRecruit:
		if m.show != 0 {
			return fmt.Sprintf(w.recruitUp, name(m.show), m.Slot+1)
		}
		return fmt.Sprintf(w.recruitDown, m.Slot+1)
	case MoveMuster:
		if m.FaceUp {
			return fmt.Sprintf(w.musterUp, name(m.Card))
		}
		return fmt.Sprintf(w.musterDown, name(m.Card))
	case MovePower:
		if m.Use {
			return fmt.Sprintf(w.use, name(m.show), power())
		}
		return fmt.Sprintf(w.decline, name(m.show))
	case MoveCopy:
		return fmt.Sprintf(w.copy, name(m.show), l.player(m.Seat), power())
	case MoveClaim:
		return fmt.Sprintf(w.claim, name(m.Card))
	case MoveTarget:
		if m.power == Cockburn {
			return fmt.Sprintf(w.cockburn, name(m.Card))
		}
		what := fmt.Sprintf(w.hiddenAt, m.Index+1)
		if m.show != 0 {
			what = name(m.show)
		}
		if m.power == Fergusson {
			return fmt.Sprintf(w.fergusson, what, l.player(m.Seat))
		}
		return fmt.Sprintf(w.wemyss, what, l.player(m.Seat))
	}
	return m.Type
}

// summary is the one-line account of the end of the game. A game set up
// without names or language keeps the first wording ("Seat 1 wins ...",
// seats from 0), so that an old game replays to the same result.
func (l *labeling) summary(r []Place, win Place) string {
	if l.plain {
		s := fmt.Sprintf("Seat %d wins with %d supporter strength", win.Seat, win.Points)
		if len(r) > 1 && r[1].Points == win.Points {
			s += fmt.Sprintf(" (tie broken by a better place in the final round: %d)", win.RoundPlace)
		}
		return s
	}
	w := words(l.lang)
	s := fmt.Sprintf(w.summary, l.player(win.Seat), win.Points)
	if len(r) > 1 && r[1].Points == win.Points {
		s += fmt.Sprintf(w.tie, win.RoundPlace)
	}
	return s
}
