package i18ntest

import (
	"slices"
	"testing"
	"testing/fstest"

	"pbem/engine/i18n"
)

func wordsCatalog(t *testing.T) *i18n.Catalog {
	t.Helper()
	fsys := fstest.MapFS{
		"w/en.json": {Data: []byte(`{"a": "Muster %s face-up", "b": {"one": "%d unit moved", "other": "%d units moved"}, "c": "Scott", "d": "%[1]s: %[2]d"}`)},
		"w/fr.json": {Data: []byte(`{"a": "Engager %s face visible", "b": {"one": "%d unité déplacée", "other": "%d unités déplacées"}, "c": "Scott", "d": "%[1]s : %[2]d"}`)},
		"w/it.json": {Data: []byte(`{"a": "Schiera %s scoperta", "b": {"one": "%d unità spostata", "other": "%d unità spostate"}, "c": "Scott", "d": "%[1]s: %[2]d"}`)},
	}
	c, err := i18n.Load(fsys, "w", "w")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestUntranslatedWords(t *testing.T) {
	c := wordsCatalog(t)
	english := Words(c, "en")
	for _, w := range []string{"muster", "face", "up", "unit", "units", "moved", "scott"} {
		if !english[w] {
			t.Errorf("%q is not among the English words %v", w, english)
		}
	}
	if english["s"] || english["d"] {
		t.Errorf("a verb or a letter is a word: %v", english)
	}
	texts := []string{"Engager Scott 2 face visible", "3 unités déplacées", "Muster Scott 2", "2 units moved", "Muster Scott 2"}
	got := UntranslatedWords(c, texts, []string{"Scott", "face"})
	want := []Leak{{"Muster Scott 2", "muster"}, {"2 units moved", "units"}}
	if !slices.Equal(got, want) {
		t.Errorf("UntranslatedWords = %v, want %v", got, want)
	}
	if bad := AllowedWords(c, "fr", []string{"Scott", "face", "up"}); !slices.Equal(bad, []string{"up"}) {
		t.Errorf("AllowedWords(fr) = %v, want [up]", bad)
	}
	if bad := AllowedWords(c, "it", []string{"Scott", "face"}); !slices.Equal(bad, []string{"face"}) {
		t.Errorf("AllowedWords(it) = %v, want [face]", bad)
	}
}

func TestMissedElisions(t *testing.T) {
	texts := []string{"Ugo défausse Scott 3 de Élodie", "Ugo défausse Scott 3 d'Élodie", "Bob prend la place de Hugo",
		"Le plan de Bob", "De Anna vient la carte", "garde Élodie"}
	got := MissedElisions(texts, []string{"Élodie", "Hugo", "Bob", "Anna", ""})
	want := []Leak{{"Bob prend la place de Hugo", "de Hugo"}, {"De Anna vient la carte", "De Anna"}, {"Ugo défausse Scott 3 de Élodie", "de Élodie"}}
	if !slices.Equal(got, want) {
		t.Errorf("MissedElisions = %v, want %v", got, want)
	}
}
