package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/model"
	"go.yaml.in/yaml/v3"
)

// alertFile is the sample alert rules, docs/alerts.yml.
const alertFile = "../../docs/alerts.yml"

// ruleFile is the shape of a Prometheus rule file.
type ruleFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert       string            `yaml:"alert"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// readAlerts parses docs/alerts.yml strictly (an unknown key is an error)
// and checks each rule's shape: a unique alert name, an expression with
// balanced brackets, a valid `for`, a severity and a summary.
func readAlerts(t *testing.T) ruleFile {
	t.Helper()
	f, err := os.Open(alertFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rf ruleFile
	d := yaml.NewDecoder(f)
	d.KnownFields(true)
	if err := d.Decode(&rf); err != nil {
		t.Fatalf("%s: %v", alertFile, err)
	}
	if len(rf.Groups) == 0 {
		t.Fatalf("%s has no rule group", alertFile)
	}
	seen := map[string]bool{}
	for _, g := range rf.Groups {
		if g.Name == "" || len(g.Rules) == 0 {
			t.Errorf("group %q: a name and rules, please", g.Name)
		}
		for _, r := range g.Rules {
			if !regexp.MustCompile(`^[A-Z][A-Za-z0-9]+$`).MatchString(r.Alert) || seen[r.Alert] {
				t.Errorf("alert %q: want a unique CamelCase name", r.Alert)
			}
			seen[r.Alert] = true
			if strings.TrimSpace(r.Expr) == "" || !balanced(r.Expr) {
				t.Errorf("alert %s: expression %q is empty or its brackets do not match", r.Alert, r.Expr)
			}
			if r.For != "" {
				if _, err := model.ParseDuration(r.For); err != nil {
					t.Errorf("alert %s: for %q: %v", r.Alert, r.For, err)
				}
			}
			if s := r.Labels["severity"]; s != "critical" && s != "warning" {
				t.Errorf("alert %s: severity %q, want critical or warning", r.Alert, s)
			}
			if r.Annotations["summary"] == "" {
				t.Errorf("alert %s has no summary", r.Alert)
			}
		}
	}
	return rf
}

// balanced reports whether the (), [] and {} of a PromQL expression
// match, outside quoted strings.
func balanced(expr string) bool {
	var stack []rune
	pairs := map[rune]rune{')': '(', ']': '[', '}': '{'}
	var quote rune
	for _, c := range expr {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			stack = append(stack, c)
		case pairs[c] != 0:
			if len(stack) == 0 || stack[len(stack)-1] != pairs[c] {
				return false
			}
			stack = stack[:len(stack)-1]
		}
	}
	return len(stack) == 0 && quote == 0
}

func TestAlertRulesParse(t *testing.T) {
	t.Parallel()
	rf := readAlerts(t)
	want := map[string]bool{"PbemOutboxStuck": false, "PbemHigh5xxRate": false, "PbemDatabaseDown": false}
	for _, g := range rf.Groups {
		for _, r := range g.Rules {
			if _, ok := want[r.Alert]; ok {
				want[r.Alert] = true
			}
		}
	}
	for a, ok := range want {
		if !ok {
			t.Errorf("%s has no %s alert", alertFile, a)
		}
	}
}

// checkAlertMetrics checks that every pbem_* metric the alert rules name
// (a histogram by its _bucket, _count or _sum series) is in fams, scraped
// from a running server.
func checkAlertMetrics(t *testing.T, fams map[string]*dto.MetricFamily) {
	t.Helper()
	name := regexp.MustCompile(`\bpbem_[a-z0-9_]+`)
	for _, g := range readAlerts(t).Groups {
		for _, r := range g.Rules {
			for _, m := range name.FindAllString(r.Expr, -1) {
				base := m
				for _, suffix := range []string{"_bucket", "_count", "_sum"} {
					if b, ok := strings.CutSuffix(m, suffix); ok && fams[b] != nil && fams[b].GetType() == dto.MetricType_HISTOGRAM {
						base = b
					}
				}
				if fams[base] == nil {
					t.Errorf("alert %s names %s, which /metrics does not export", r.Alert, m)
				}
			}
		}
	}
}
