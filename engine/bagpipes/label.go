package bagpipes

import (
	"fmt"
	"strings"
)

// labeling is what a move needs to describe itself: the card set (to name
// cards and say what they do), the players' names and the game's language.
// It is built once per state and never changed, so moves and clones share
// it; a label is written only when asked for (Move.Label), never while
// listing moves.
type labeling struct {
	set   *CardSet
	names []string
	li    int // index in languages
}

// labels is the state's labeling (a state built without one, in a test,
// gets a fresh one).
func (s *state) labels() *labeling {
	if s.lab != nil {
		return s.lab
	}
	return &labeling{set: s.Set, names: s.Names, li: langIndex(s.Lang)}
}

// playerName is the name of seat, or a neutral "Player 2" (numbered from 1)
// in the language li. Describe and the labels share it.
func playerName(names []string, seat, li int) string {
	if seat >= 0 && seat < len(names) {
		if n := strings.TrimSpace(names[seat]); n != "" {
			return n
		}
	}
	return fmt.Sprintf(labelVocab[li].player, seat+1)
}

// labelWords is one language's move labels. English and French use the
// rulebooks' words for the actions (French buttons in the infinitive, as
// the French rulebook names them); Italian buttons are imperatives.
type labelWords struct {
	player  string            // "Player %d"
	act     map[string]string // replenishment action → label
	stay    string            // action label, step: "Stay home: …"
	unit    noun              // units moved or added
	dagger  noun              // daggers on a dagger card
	move    string            // counted units: relocation
	play    string            // card name
	on      string            // target's name
	with    string            // counted units
	text    string            // card text (after the label)
	endTurn string
	pass    string
	give    string // the badge, to whom
	keep    string
	token   string // the Stay Home! token, to whom
	side    [3]string
	offer   string // counted daggers
}

// labelVocab holds the three languages' labels, in the order of languages.
var labelVocab = [...]labelWords{
	{
		player: "Player %d",
		act: map[string]string{
			ActTaxes:       "Collect taxes (+1 gold)",
			ActMilitia:     "Raise militia (+1 unit in every camp and in Scotland's camp)",
			ActTroops:      "Assemble troops (+2 units in your castle)",
			ActMercenaries: "Hire mercenaries (pay 1 gold, +4 units in your castle)",
		},
		stay:    "Stay home: %[1]s (%[2]d of 3)",
		unit:    noun{"unit", "units"},
		dagger:  noun{"dagger", "daggers"},
		move:    "Move %s from your castle to your camp",
		play:    "Play %s",
		on:      " on %s",
		with:    " with %s",
		text:    ": %s",
		endTurn: "End your turn",
		pass:    "Play no more bagpipe cards in this phase",
		give:    "Give the badge of honour to %s",
		keep:    "Keep the badge of honour",
		token:   "Give the Stay Home! token to %s",
		side:    [3]string{"", "Support Scotland", "Support England"},
		offer:   " and offer a dagger card with %s",
	},
	{
		player: "Joueur %d",
		act: map[string]string{
			ActTaxes:       "Percevoir des impôts (+1 or)",
			ActMilitia:     "Lever une milice (+1 unité dans chaque camp et dans le camp de l'Écosse)",
			ActTroops:      "Rassembler des troupes (+2 unités dans votre château)",
			ActMercenaries: "Engager des mercenaires (défausser 1 or, +4 unités dans votre château)",
		},
		stay:    "Restez chez vous ! — %[1]s (%[2]d sur 3)",
		unit:    noun{"unité", "unités"},
		dagger:  noun{"dague", "dagues"},
		move:    "Délocaliser %s de votre château vers votre camp",
		play:    "Jouer %s",
		on:      " en ciblant %s",
		with:    " avec %s",
		text:    " : %s",
		endTurn: "Terminer votre tour",
		pass:    "Ne plus jouer de cartes cornemuse dans cette phase",
		give:    "Passer la médaille d'honneur à %s",
		keep:    "Garder la médaille d'honneur",
		token:   "Donner le jeton « Restez chez vous ! » à %s",
		side:    [3]string{"", "Soutenir l'Écosse", "Soutenir l'Angleterre"},
		offer:   " et préparer une carte dague à %s",
	},
	{
		player: "Giocatore %d",
		act: map[string]string{
			ActTaxes:       "Riscuoti le tasse (+1 moneta d'oro)",
			ActMilitia:     "Arruola la milizia (+1 unità in ogni accampamento e nell'accampamento della Scozia)",
			ActTroops:      "Raduna le truppe (+2 unità nel tuo castello)",
			ActMercenaries: "Assolda mercenari (paga 1 moneta d'oro, +4 unità nel tuo castello)",
		},
		stay:    "Resta a casa: %[1]s (%[2]d di 3)",
		unit:    noun{"unità", "unità"},
		dagger:  noun{"pugnale", "pugnali"},
		move:    "Sposta %s dal tuo castello al tuo accampamento",
		play:    "Gioca %s",
		on:      " su %s",
		with:    " con %s",
		text:    ": %s",
		endTurn: "Termina il tuo turno",
		pass:    "Non giocare altre carte cornamusa in questa fase",
		give:    "Passa la medaglia d'onore a %s",
		keep:    "Tieni la medaglia d'onore",
		token:   "Dai il segnalino «Resta a casa!» a %s",
		side:    [3]string{"", "Sostieni la Scozia", "Sostieni l'Inghilterra"},
		offer:   " e prepara una carta pugnale da %s",
	},
}

// label writes m's label in l's language with l's names.
func (l *labeling) label(m Move) string {
	w := &labelVocab[l.li]
	name := func(seat int) string { return playerName(l.names, seat, l.li) }
	switch m.Type {
	case MoveReplenish:
		t := w.act[m.Action]
		if t == "" {
			t = m.Action
		}
		if m.step > 0 {
			t = fmt.Sprintf(w.stay, t, m.step)
		}
		return t
	case MoveRelocate:
		return fmt.Sprintf(w.move, w.unit.count(m.Units))
	case MovePlay:
		return l.playLabel(m, w)
	case MoveEndTurn:
		return w.endTurn
	case MovePass:
		return w.pass
	case MovePassBadge:
		return fmt.Sprintf(w.give, name(m.To))
	case MoveKeepBadge:
		return w.keep
	case MoveStayHome:
		return fmt.Sprintf(w.token, name(m.To))
	case MoveChoose:
		t := m.Side
		switch m.Side {
		case sideNames[sideScotland]:
			t = w.side[sideScotland]
		case sideNames[sideEngland]:
			t = w.side[sideEngland]
		}
		if m.Dagger > 0 {
			t += fmt.Sprintf(w.offer, w.dagger.count(m.Dagger))
		}
		return t
	}
	return m.Type
}

// playLabel writes "Play <card> on <name> with <n> units: <text>".
func (l *labeling) playLabel(m Move, w *labelWords) string {
	cardName, text := m.Card, ""
	if l.set != nil {
		if c, ok := l.set.bagByID[m.Card]; ok {
			cardName, text = l.set.Bagpipes[c].Name, l.set.texts[l.li][c]
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, w.play, cardName)
	if m.Target >= 0 {
		fmt.Fprintf(&b, w.on, playerName(l.names, m.Target, l.li))
	}
	if m.Units >= 0 {
		fmt.Fprintf(&b, w.with, w.unit.count(m.Units))
	}
	if text != "" {
		fmt.Fprintf(&b, w.text, text)
	}
	return b.String()
}
