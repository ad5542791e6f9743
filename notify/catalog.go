package notify

import (
	"embed"

	"pbem/engine/i18n"
)

// The emails' messages: one JSON file per language under i18n (en.json,
// fr.json, it.json), fmt formats with positional arguments and CLDR plural
// forms, loaded by pbem/engine/i18n. Each template passes a message its
// arguments explicitly ({{t "your_turn.intro" .Game .Players}}). Besides
// the messages, each language has "layout.deadline", the time.Format
// layout of a deadline (always in UTC).
//
//go:embed i18n/*.json
var catalogFS embed.FS

// emailCatalog is the emails' catalog; TestEmailCatalogCheck checks that
// every language has every key with the same arguments.
var emailCatalog = i18n.MustLoad(catalogFS, "i18n", "emails")
