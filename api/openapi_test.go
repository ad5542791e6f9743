package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"pbem/api"
)

// TestOpenAPIDocumentsEveryRoute checks the OpenAPI document against the
// server's real routes under /api/v1, as serve wires them (the API's table
// plus the mail routes): every route is documented and every documented
// operation exists.
func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.srv = api.New(api.Config{Service: e.svc, Mail: &api.MailConfig{Service: e.svc}})
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if st := e.do("GET", "/api/v1/openapi.json", "", nil, &doc); st != http.StatusOK || !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("openapi.json: %d %q", st, doc.OpenAPI)
	}
	var documented []string
	for p, ops := range doc.Paths {
		for m := range ops {
			if m == "parameters" {
				continue
			}
			documented = append(documented, strings.ToUpper(m)+" "+p)
		}
	}
	var served []string
	for _, r := range e.srv.Echo().Routes() {
		if !strings.HasPrefix(r.Path, "/api/v1/") {
			continue
		}
		parts := strings.Split(r.Path, "/")
		for i, p := range parts {
			if strings.HasPrefix(p, ":") {
				parts[i] = "{" + p[1:] + "}"
			}
		}
		served = append(served, r.Method+" "+strings.Join(parts, "/"))
	}
	slices.Sort(documented)
	slices.Sort(served)
	if !slices.Equal(documented, served) {
		t.Fatalf("documented:\n%s\nserved:\n%s", strings.Join(documented, "\n"), strings.Join(served, "\n"))
	}

}
