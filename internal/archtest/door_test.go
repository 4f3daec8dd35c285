package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// rawWrites are the names the domain's raw write and unguarded batch had
// when they were exported: Library.Update (the transaction) and
// Library.Apply (a batch with no guard and no lint gate).
var rawWrites = map[string]bool{"Update": true, "Apply": true}

// TestOneDoorForWrites keeps the write policy the one door for writes
// (docs/architecture.md §2.1): the domain's Library exports no raw write
// (Update, Apply) and no exported type of the domain is a transaction (a
// type with a Commit(Message) method), so a package outside the domain
// can only write through a Policy verb, which routes, checks and
// attributes the write. The compiler then holds every caller to it.
func TestOneDoorForWrites(t *testing.T) {
	p, ok := listPackages(t)[module+"/"+domain]
	if !ok {
		t.Fatalf("package %s not found", domain)
	}
	for _, f := range parseDir(t, p.Dir, false) {
		for _, d := range f.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || !fd.Name.IsExported() {
				continue
			}
			recv := recvName(fd.Recv)
			switch {
			case recv == "Library" && rawWrites[fd.Name.Name]:
				t.Errorf("%s: Library.%s is exported: a write from outside the domain goes through a Policy verb (policy.go), not the raw write", f.name, fd.Name.Name)
			case ast.IsExported(recv) && fd.Name.Name == "Commit" && takesMessage(fd):
				t.Errorf("%s: %s.Commit is exported: a transaction is the domain's own (writeTx); offer a Policy verb instead", f.name, recv)
			}
		}
	}
}

// TestNoLintGateOutsideTheDomain keeps the lint gate a rule of the write
// policy (policy_gate.go): no package outside the domain and lint itself
// calls lint.GateFor, so no door decides by lint on its own — the CLI's
// sync records lint errors through the domain, the curator asks its
// policy.
func TestNoLintGateOutsideTheDomain(t *testing.T) {
	for path, p := range listPackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if rel == domain || rel == "lint" || strings.HasPrefix(rel, "lint/") {
			continue
		}
		for _, f := range parseDir(t, p.Dir, true) {
			name := importName(f.file, module+"/lint", "lint")
			if name == "" {
				continue
			}
			ast.Inspect(f.file, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "GateFor" {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == name {
					t.Errorf("%s: %s calls lint.GateFor: the lint gate is the write policy's (skillrepo.Policy); ask the policy", f.name, rel)
				}
				return true
			})
		}
	}
}

// maxLibraryMethods bounds the domain's front door: Library opens, reads,
// names branches and hands out the write policy and the rooms (History,
// Proposals, Owners, Memory, Remote, CuratorRuns); a new verb belongs in a
// room, or is the policy's when it writes (issue 34: 84 methods before).
const maxLibraryMethods = 30

// TestLibraryInRooms keeps the domain in rooms (docs/architecture.md §1):
// Library exports at most maxLibraryMethods methods.
func TestLibraryInRooms(t *testing.T) {
	p, ok := listPackages(t)[module+"/"+domain]
	if !ok {
		t.Fatalf("package %s not found", domain)
	}
	var names []string
	for _, f := range parseDir(t, p.Dir, false) {
		for _, d := range f.file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.IsExported() && recvName(fd.Recv) == "Library" {
				names = append(names, fd.Name.Name)
			}
		}
	}
	if len(names) > maxLibraryMethods {
		t.Errorf("Library has %d exported methods, more than %d: put a verb in its room (rooms.go), or on the write policy when it writes: %s",
			len(names), maxLibraryMethods, strings.Join(names, ", "))
	}
}

type parsedFile struct {
	name string
	file *ast.File
}

// parseDir parses the Go files of dir (its tests too when tests is set).
func parseDir(t *testing.T, dir string, tests bool) []parsedFile {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []parsedFile
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || (!tests && strings.HasSuffix(n, "_test.go")) {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, parsedFile{name: filepath.Join(filepath.Base(dir), n), file: f})
	}
	return out
}

// importName is the name f uses for the package path ("" when f does not
// import it); def is the package's own name.
func importName(f *ast.File, path, def string) string {
	for _, im := range f.Imports {
		if v, _ := strconv.Unquote(im.Path.Value); v == path {
			if im.Name != nil {
				return im.Name.Name
			}
			return def
		}
	}
	return ""
}

// recvName is the type name of a method's receiver.
func recvName(recv *ast.FieldList) string {
	t := recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// takesMessage reports whether a method's parameters name the domain's
// commit Message.
func takesMessage(fd *ast.FuncDecl) bool {
	for _, p := range fd.Type.Params.List {
		if id, ok := p.Type.(*ast.Ident); ok && id.Name == "Message" {
			return true
		}
	}
	return false
}
