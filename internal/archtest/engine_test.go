package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// domain is the skills domain's package, relative to the module: the one
// package that uses the engine.
const domain = "skillrepo"

// TestOnlyTheDomainUsesTheEngine keeps the engine a library of the domain
// (docs/architecture.md §1): no package but the domain imports it, in its
// code or its tests — the CLI, the hooks, the curator, the review and
// every other package speak to a library through the domain's verbs. Go's
// internal rule already keeps packages outside skillrepo/ from importing
// it; this also covers the domain's own subpackages and says why.
func TestOnlyTheDomainUsesTheEngine(t *testing.T) {
	for path, p := range listPackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if rel == domain || rel == engine || strings.HasPrefix(rel, engine+"/") {
			continue
		}
		for _, imports := range [][]string{p.Imports, p.TestImports, p.XTestImports} {
			if slices.Contains(imports, module+"/"+engine) {
				t.Errorf("%s imports the engine %s: only the domain package %s may; add a domain verb there", rel, engine, domain)
				break
			}
		}
	}
}

// engineTypesAllowed are the engine's types the domain hands out as its
// own: the object id (go-git's value type, named through the engine so
// nothing above imports go-git) and the error values callers inspect with
// errors.As.
var engineTypesAllowed = map[string]bool{"Hash": true, "DirtyError": true, "LockedError": true, "RefMovedError": true}

// TestDomainAPIHidesTheEngine keeps the engine out of the domain's
// exported API, so it cannot leak back through it: no exported type
// embeds an engine type (whose methods would be promoted), and no
// exported function, method, field or type names one, but for
// engineTypesAllowed.
func TestDomainAPIHidesTheEngine(t *testing.T) {
	p, ok := listPackages(t)[module+"/"+domain]
	if !ok {
		t.Fatalf("package %s not found", domain)
	}
	entries, err := os.ReadDir(p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range engineInAPI(fset, f) {
			t.Errorf("%s: the domain's API reaches the engine; keep the engine private and offer a domain verb or type", bad)
		}
	}
}

// engineInAPI lists the places in f's exported declarations that name an
// engine type not in engineTypesAllowed.
func engineInAPI(fset *token.FileSet, f *ast.File) []string {
	name := ""
	for _, im := range f.Imports {
		if v, _ := strconv.Unquote(im.Path.Value); v == module+"/"+engine {
			name = "gitstore"
			if im.Name != nil {
				name = im.Name.Name
			}
		}
	}
	if name == "" {
		return nil
	}
	var bad []string
	check := func(what string, n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && !engineTypesAllowed[sel.Sel.Name] {
					bad = append(bad, fset.Position(sel.Pos()).String()+": "+what+" names "+name+"."+sel.Sel.Name)
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
				continue
			}
			check(d.Name.Name, d.Type)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					checkTypeSpec(s, check)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() && s.Type != nil {
							check(n.Name, s.Type)
						}
					}
				}
			}
		}
	}
	return bad
}

// checkTypeSpec checks an exported type: its alias target or, for a
// struct, its exported and embedded fields; any type's embedded engine
// field is a leak even when the type is unexported, since an exported
// type may embed it in turn.
func checkTypeSpec(s *ast.TypeSpec, check func(string, ast.Node)) {
	st, isStruct := s.Type.(*ast.StructType)
	if !isStruct {
		if s.Name.IsExported() {
			check(s.Name.Name, s.Type)
		}
		return
	}
	for _, fld := range st.Fields.List {
		switch {
		case len(fld.Names) == 0:
			check(s.Name.Name+" (embedded field)", fld.Type)
		case s.Name.IsExported():
			for _, n := range fld.Names {
				if n.IsExported() {
					check(s.Name.Name+"."+n.Name, fld.Type)
				}
			}
		}
	}
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if g, ok := t.(*ast.IndexExpr); ok {
		t = g.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}
