package i18ntest

import (
	"os"
	"slices"
	"testing"

	"pbem/engine/i18n"
)

func catalog(t *testing.T) *i18n.Catalog {
	t.Helper()
	c, err := i18n.Load(os.DirFS("../testdata"), "good", "good")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestUntranslated(t *testing.T) {
	c := catalog(t)
	texts := []string{
		"En attente d'Élodie.",               // French: fine
		"Waiting for",                        // a whole English phrase (punctuation aside)
		"cards:",                             // a whole English phrase, one word
		"Il reste 2 heures à Ann, no cards",  // holds an English phrase of 2 words only: fine
		"Ann has 2 hours left",               // "hours left" is 2 words: fine
		"Bob  played\n Fergusson",            // a whole phrase? no: fine
		"Il reste une carte: no cards here.", // fine (2 words)
	}
	got := Untranslated(c, texts, nil)
	want := []Leak{{"Waiting for", "Waiting for"}, {"cards:", "cards"}}
	if !slices.Equal(got, want) {
		t.Errorf("Untranslated = %v, want %v", got, want)
	}
	if got := Untranslated(c, []string{"cards"}, []string{"cards"}); len(got) != 0 {
		t.Errorf("an allowed phrase is reported: %v", got)
	}
}

func TestUntranslatedLongPhraseInside(t *testing.T) {
	c, err := i18n.Load(os.DirFS("testdata"), "long", "long")
	if err != nil {
		t.Fatal(err)
	}
	got := Untranslated(c, []string{"Bob: The game is over. Bravo !", "La partie est terminée."}, nil)
	if len(got) != 1 || got[0].Phrase != "The game is over." {
		t.Errorf("Untranslated = %v", got)
	}
	if bad := Allowed(c, "fr", []string{"Lords of Scotland", "The game is over."}); !slices.Equal(bad, []string{"The game is over."}) {
		t.Errorf("Allowed = %q", bad)
	}
}

func TestHTMLTexts(t *testing.T) {
	got, err := HTMLTexts(`<!DOCTYPE html><html><head><title>Titre</title><script>var x = "Waiting for";</script></head>
<body><p title="Fuseau">Un <strong>deux</strong></p><span aria-label="Étiquette"></span><img alt="Image"><input placeholder="Indice"></body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Titre", "Fuseau", "Un", "deux", "Étiquette", "Image", "Indice"}
	if !slices.Equal(got, want) {
		t.Errorf("HTMLTexts = %q, want %q", got, want)
	}
}

func TestTextLines(t *testing.T) {
	if got := TextLines("Bonjour,\n\n  Votre tour.  \n"); !slices.Equal(got, []string{"Bonjour,", "Votre tour."}) {
		t.Errorf("TextLines = %q", got)
	}
}
