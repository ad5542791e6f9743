package i18n

// Colon is what separates a label from what it labels in lang, where a
// template or Go code puts a translated label before its value: ": " in
// English and Italian, "\u00a0: " in French, whose colon takes a no-break
// space before it as in the catalogs (checkFrenchSpaces).
func Colon(lang string) string {
	if Norm(lang) == "fr" {
		return "\u00a0: "
	}
	return ": "
}

// Label is key's message in the printer's language followed by Colon:
// the label of a value that follows it ("Points de partisans\u00a0: 4").
func (p Printer) Label(key string, args ...any) string {
	return p.T(key, args...) + Colon(p.lang)
}
