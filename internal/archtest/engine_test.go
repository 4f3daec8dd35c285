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

// rooms are the domain's concerns moved to packages of their own below it
// (docs/architecture.md §1), as go-git's plumbing sits below its
// Repository: each builds on the engine (or on internal helpers), and the
// domain opens it and hands it what only the domain knows.
var rooms = []string{"skillrepo/history", "skillrepo/usage", "skillrepo/catalog", "skillrepo/graph", "skillrepo/proposals"}

// TestOnlyTheDomainUsesTheEngine keeps the engine a library of the domain
// (docs/architecture.md §1): no package but the domain and its rooms
// imports it, in its code or its tests — the CLI, the hooks, the curator,
// the review and every other package speak to a library through the
// domain's verbs. Go's internal rule already keeps packages outside
// skillrepo/ from importing it; this also covers the domain's own
// subpackages and says why.
func TestOnlyTheDomainUsesTheEngine(t *testing.T) {
	for path, p := range listPackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if rel == domain || rel == engine || strings.HasPrefix(rel, engine+"/") || slices.Contains(rooms, rel) {
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

// engineWrites are the engine's verbs that write: the transaction
// (Repo.Update and its Tx), refs, the repository lock and crash recovery,
// objects (Store.Put), the remote transports (go-git's and the git
// binary's, which runs any git command) and a new repository.
var engineWrites = map[string]bool{
	"Update": true, "UpdateRef": true, "DeleteRef": true, "Lock": true, "Recover": true, "RecoverLocked": true,
	"Put": true, "RemotePush": true, "RemoteFetch": true, "GitPush": true, "GitFetch": true, "GitCommand": true,
	"RemoveLinkedWorktree": true, "SparseCheckout": true, "Init": true,
}

// TestRoomsBelowTheDomain keeps each room below the domain: it imports
// neither the domain (the domain imports it) nor any package above it,
// only the engine, the pure helpers of skillrepo/ and internal ones; and
// it reads through the engine without writing — no call of an engine
// verb that writes (engineWrites, matched by name), so the domain and its
// write policy stay the one writer of the repository (§2.1).
func TestRoomsBelowTheDomain(t *testing.T) {
	pkgs := listPackages(t)
	below := func(imp string) bool {
		rel, ours := strings.CutPrefix(imp, module+"/")
		if !ours {
			return true // the standard library or a third-party module
		}
		return rel == engine || strings.HasPrefix(rel, "internal/") || slices.Contains(rooms, rel) ||
			rel == "skillrepo/skill" || rel == "skillrepo/merge" || rel == "skillrepo/memory" || rel == "skillrepo/trailer"
	}
	for _, room := range rooms {
		p, ok := pkgs[module+"/"+room]
		if !ok {
			t.Errorf("room %s not found: keep the list current", room)
			continue
		}
		if slices.Contains(p.Deps, module+"/"+domain) {
			t.Errorf("%s depends on the domain %s: a room sits below it; take what it needs as a parameter", room, domain)
		}
		for _, imports := range [][]string{p.Imports, p.TestImports, p.XTestImports} {
			for _, imp := range imports {
				if !below(imp) {
					t.Errorf("%s imports %s: a room imports only the engine, the pure helpers and internal packages", room, imp)
				}
			}
		}
		for _, f := range parseDir(t, p.Dir, false) {
			if importName(f.file, module+"/"+engine, "gitstore") == "" {
				continue
			}
			// Names are matched, not types: a call on another package
			// (crc32.Update) or on a sync.Mutex field named mu is no
			// engine write.
			others := map[string]bool{}
			for _, im := range f.file.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				if name := importName(f.file, path, filepath.Base(path)); path != module+"/"+engine {
					others[name] = true
				}
			}
			notEngine := func(x ast.Expr) bool {
				switch x := x.(type) {
				case *ast.Ident:
					return others[x.Name] || x.Name == "mu"
				case *ast.SelectorExpr:
					return x.Sel.Name == "mu"
				}
				return false
			}
			ast.Inspect(f.file, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && engineWrites[sel.Sel.Name] && !notEngine(sel.X) {
					t.Errorf("%s: %s calls the engine's write %s: only the domain writes (through its write policy)", f.name, room, sel.Sel.Name)
				}
				return true
			})
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
