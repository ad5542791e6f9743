package enginetest

import (
	"slices"
	"testing"
	"testing/fstest"
)

func TestEnglishAndForeignWords(t *testing.T) {
	fsys := fstest.MapFS{"en.json": {Data: []byte(`{
		"a": "Muster %s face-up",
		"b": {"one": "%d unit moved", "other": "%d units moved"},
		"c": "Scott",
		"d": "%[1]s: %[2]d"}`)}}
	english, err := EnglishWords(fsys, "en.json", "face")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"muster", "up", "unit", "units", "moved"} {
		if !english[w] {
			t.Errorf("%q is not among the English words %v", w, english)
		}
	}
	for _, w := range []string{"face", "scott", "s", "d"} {
		if english[w] {
			t.Errorf("%q is among the English words", w)
		}
	}
	got := ForeignWords([]string{"Engager Scott 2 face visible", "3 unités déplacées", "Muster Scott 2", "2 units moved", "Muster Scott 2"}, english)
	if want := []string{"muster: Muster Scott 2", "units: 2 units moved"}; !slices.Equal(got, want) {
		t.Errorf("ForeignWords: %q, want %q", got, want)
	}
}

func TestMissedElisions(t *testing.T) {
	texts := []string{"Ugo défausse Scott 3 de Élodie", "Ugo défausse Scott 3 d'Élodie", "Bob prend la place de Hugo",
		"Le plan de Bob", "De Anna vient la carte", "garde Élodie"}
	got := MissedElisions(texts, []string{"Élodie", "Hugo", "Bob", "Anna"})
	want := []string{"De Anna: De Anna vient la carte", "de Hugo: Bob prend la place de Hugo", "de Élodie: Ugo défausse Scott 3 de Élodie"}
	if !slices.Equal(got, want) {
		t.Errorf("MissedElisions: %q, want %q", got, want)
	}
}
