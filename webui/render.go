package webui

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"gopkg.in/yaml.v3"

	"github.com/skillrepo/skillrepo/skillrepo"
)

//go:embed templates static
var assets embed.FS

// markdown renders untrusted SKILL.md bodies: goldmark without its
// unsafe option writes raw HTML as a comment and drops javascript:,
// vbscript:, file: and data: (but images) link destinations.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// maxRendered bounds the SKILL.md a page renders.
const maxRendered = 1 << 20

// renderSkill splits SKILL.md into its frontmatter (shown as a table)
// and its body rendered as HTML. unparsed says why the frontmatter could
// not be read (it is then shown as text).
func renderSkill(raw []byte) (front [][2]string, body template.HTML, unparsed string) {
	if len(raw) > maxRendered {
		raw = raw[:maxRendered]
	}
	text := string(raw)
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		if fm, after, ok := strings.Cut(rest, "\n---"); ok {
			text = strings.TrimPrefix(strings.TrimPrefix(after, "\r"), "\n")
			var node yaml.Node
			if err := yaml.Unmarshal([]byte(fm), &node); err != nil || len(node.Content) == 0 || node.Content[0].Kind != yaml.MappingNode {
				unparsed = fm
			} else {
				m := node.Content[0]
				for i := 0; i+1 < len(m.Content); i += 2 {
					v := m.Content[i+1].Value
					if m.Content[i+1].Kind != yaml.ScalarNode {
						b, _ := yaml.Marshal(m.Content[i+1])
						v = strings.TrimSpace(string(b))
					}
					front = append(front, [2]string{m.Content[i].Value, v})
				}
			}
		}
	}
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(text), &buf); err != nil {
		return front, template.HTML(template.HTMLEscapeString(text)), unparsed
	}
	return front, template.HTML(buf.String()), unparsed // #nosec: goldmark escapes raw HTML (no WithUnsafe)
}

func hashString(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}

var funcs = template.FuncMap{
	"short": func(s any) string {
		var str string
		switch v := s.(type) {
		case skillrepo.Hash:
			str = v.String()
		case string:
			str = v
		}
		if len(str) > 12 {
			return str[:12]
		}
		return str
	},
	"when": func(t any) string {
		switch v := t.(type) {
		case time.Time:
			if v.IsZero() {
				return "—"
			}
			return v.UTC().Format("2006-01-02 15:04")
		case *time.Time:
			if v == nil || v.IsZero() {
				return "—"
			}
			return v.UTC().Format("2006-01-02 15:04")
		}
		return "—"
	},
	"dash": func(s string) string {
		if s == "" {
			return "—"
		}
		return s
	},
	"join": strings.Join,
	"dict": func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	},
}

// parseTemplates parses each page on the shared layout.
func parseTemplates() (map[string]*template.Template, error) {
	base, err := template.New("layout.html").Funcs(funcs).ParseFS(assets, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	pages, err := fs.Glob(assets, "templates/*.html")
	if err != nil {
		return nil, err
	}
	out := map[string]*template.Template{}
	for _, p := range pages {
		name := strings.TrimSuffix(strings.TrimPrefix(p, "templates/"), ".html")
		if name == "layout" {
			continue
		}
		t, err := template.Must(base.Clone()).ParseFS(assets, p)
		if err != nil {
			return nil, err
		}
		out[name] = t
	}
	return out, nil
}

// render writes page name with v.
func (s *Server) render(w http.ResponseWriter, code int, name string, v *view) {
	t, ok := s.tmpl[name]
	if !ok {
		http.Error(w, "no page "+name, http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout.html", v); err != nil {
		http.Error(w, "render "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write(buf.Bytes())
}
