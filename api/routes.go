package api

import "net/http"

// routes is the route table: every route of the server, in one place.
// Files that add routes (mail, pages) add their lines here.
func (s *Server) routes() []Route {
	return []Route{
		{http.MethodGet, "/healthz", s.healthz},
		{http.MethodGet, "/api/v1/openapi.json", s.openAPI},
		{http.MethodPost, "/api/v1/games", s.createGame},
		{http.MethodGet, "/api/v1/games/:id", s.getGame},
		{http.MethodGet, "/api/v1/games/:id/view", s.getView},
		{http.MethodPost, "/api/v1/games/:id/moves", s.postMove},
		{http.MethodGet, "/api/v1/games/:id/history", s.getHistory},
		{http.MethodGet, "/api/v1/games/:id/audit", s.getAudit},
		{http.MethodPost, "/api/v1/games/:id/admin/resend", s.adminResend},
		{http.MethodPost, "/api/v1/games/:id/admin/abort", s.adminAbort},
		{http.MethodPost, "/api/v1/games/:id/admin/pause", s.adminPause},
		{http.MethodPost, "/api/v1/games/:id/admin/resume", s.adminResume},
		{http.MethodPost, "/api/v1/games/:id/admin/extend", s.adminExtend},
	}
}
