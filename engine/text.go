package engine

import (
	"embed"

	"pbem/engine/i18n"
)

//go:embed catalog/*.json
var catalogFS embed.FS

// texts is the catalog of the texts package engine writes itself: the
// messages of CheckOptions, in en, fr and it (see engine/i18n; each game
// has its own catalog for its labels).
var texts = i18n.MustLoad(catalogFS, "catalog", "engine")
