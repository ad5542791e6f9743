package projections

import (
	"embed"

	"pbem/engine/i18n"
)

//go:embed i18n/*.json
var textFS embed.FS

// texts are the service events' sentences and the result line, in every
// language (engine/i18n; a test checks the catalogs agree).
var texts = i18n.MustLoad(textFS, "i18n", "projections")
