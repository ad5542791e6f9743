package api_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pbem/api"
	"pbem/engine/lords"
	"pbem/events/tokens"
)

// TestAdminErrorsSpeakTheAdminPagesLanguage: an error on the admin page of
// a game the request's admin link opens (a stale form, a conflict, a link
// replaced since) speaks the admin page's language (the game's here, or
// the page's ?lang=), not the browser's, so that the organiser does not
// switch language between the page and its error; a forged link, which
// opens no game, gets the browser's language.
func TestAdminErrorsSpeakTheAdminPagesLanguage(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "it", "")
	adm := e.speaking("fr-FR,fr;q=0.9")
	if r := adm.get("/admin/" + id + "?token=" + tokens.Admin(secret, id, 0)); r.Status != http.StatusSeeOther {
		t.Fatalf("admin link: %d", r.Status)
	}
	ap := adm.get("/admin/" + id)
	if !strings.Contains(ap.Body, `<html lang="it"`) {
		t.Fatalf("the admin page is not in the game's Italian:\n%.300s", ap.Body)
	}
	csrf := moveForm(t, ap.Body).csrf

	says := func(what string, p page, status int, lang, key string) {
		t.Helper()
		body := html.UnescapeString(p.Body)
		if p.Status != status || !strings.Contains(body, `<html lang="`+lang+`"`) || !strings.Contains(body, api.PageCatalog.T(lang, key)) {
			t.Errorf("%s: %d, want %d in %s saying %q:\n%s", what, p.Status, status, lang, api.PageCatalog.T(lang, key), body)
		}
	}
	says("a stale form", adm.post("/admin/"+id, url.Values{"csrf": {"stale"}, "action": {"pause"}}),
		http.StatusForbidden, "it", "err.csrf")
	says("a conflict", adm.post("/admin/"+id, url.Values{"csrf": {csrf}, "action": {"resume"}}),
		http.StatusConflict, "it", "err.invalid")
	says("a conflict on a page asked in English", adm.post("/admin/"+id+"?lang=en", url.Values{"csrf": {csrf}, "action": {"resume"}}),
		http.StatusConflict, "en", "err.invalid")
	says("a forged link", e.speaking("fr").get("/admin/"+id+"?token=forged"), http.StatusUnauthorized, "fr", "err.unauthorized")
	says("a forged link to no game", e.speaking("fr").get("/admin/nogame?token=forged"), http.StatusNotFound, "fr", "err.not_found")

	if _, err := e.svc.RevokeAdminLink(t.Context(), id, tokens.Admin(secret, id, 0)); err != nil {
		t.Fatal(err)
	}
	says("a replaced link's cookie", adm.get("/admin/"+id), http.StatusUnauthorized, "it", "err.admin_revoked")
	says("a replaced link", e.speaking("fr").get("/admin/"+id+"?token="+tokens.Admin(secret, id, 0)),
		http.StatusUnauthorized, "it", "err.admin_revoked")
}
