package api

// PageCatalog is the pages' catalog, for the external tests that check
// the pages hold no English text in other languages.
var PageCatalog = pageCatalog
