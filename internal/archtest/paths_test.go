package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sharedDir and workShared spell the team's shared folder, which no code
// or test may read: joined here so that this file, which names what the
// check looks for, is not itself a hit for a search of the source.
const (
	sharedDir  = "../" + "shared"
	workShared = "/work/" + "shared"
)

// fileCalls are the functions whose path argument names a file the test
// would read (or list, or walk).
var fileCalls = map[string]bool{
	"os.Open": true, "os.OpenFile": true, "os.ReadFile": true, "os.Stat": true, "os.Lstat": true,
	"os.ReadDir": true, "os.DirFS": true, "os.Chdir": true, "os.CopyFS": true,
	"filepath.Join": true, "filepath.Glob": true, "filepath.Walk": true, "filepath.WalkDir": true,
	"filepath.Abs": true, "filepath.EvalSymlinks": true,
}

// outsideModule reports whether a literal path names something outside the
// module when resolved from dir (a folder inside root), or names the team's
// shared folder however it is spelled.
func outsideModule(root, dir, lit string) bool {
	s := filepath.ToSlash(lit)
	if strings.Contains(s, sharedDir) || strings.HasPrefix(s, "shared/testdata") || strings.HasPrefix(s, "shared/corpora") || strings.HasPrefix(s, "/work/") {
		return true
	}
	if !strings.HasPrefix(s, "../") {
		return false
	}
	rel, err := filepath.Rel(root, filepath.Join(dir, lit))
	return err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// checkGoSource returns the string literals of src (a file in dir) that
// name a path outside the module: in a constant or package-level
// variable, or given to a file-system call. Literals elsewhere ("../x" as a
// traversal a guard must refuse) are test input, not a path the test reads.
func checkGoSource(root, dir, name string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var bad []string
	seen := map[token.Pos]bool{}
	add := func(lit *ast.BasicLit, v string) {
		if !seen[lit.Pos()] {
			seen[lit.Pos()] = true
			bad = append(bad, fset.Position(lit.Pos()).String()+": "+v)
		}
	}
	report := func(lit *ast.BasicLit) {
		if lit == nil || lit.Kind != token.STRING {
			return
		}
		v, err := strconv.Unquote(lit.Value)
		if err == nil && outsideModule(root, dir, v) {
			add(lit, v)
		}
	}
	var visitArgs func(ast.Expr)
	visitArgs = func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.BasicLit:
			report(e)
		case *ast.BinaryExpr: // "../.." + "/shared"
			visitArgs(e.X)
			visitArgs(e.Y)
		case *ast.ParenExpr:
			visitArgs(e.X)
		}
	}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && (gd.Tok == token.CONST || gd.Tok == token.VAR) {
			for _, spec := range gd.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					visitArgs(v)
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && fileCalls[pkg.Name+"."+sel.Sel.Name] {
					for _, a := range n.Args {
						visitArgs(a)
					}
					if sel.Sel.Name == "Join" {
						// filepath.Join(dir, "..", "shared", sub): the parts
						// spell the shared folder only together.
						parts := make([]string, len(n.Args))
						for i, a := range n.Args {
							parts[i] = "X"
							if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
								parts[i], _ = strconv.Unquote(lit.Value)
							}
						}
						if j := strings.Join(parts, "/"); strings.Contains(j, sharedDir) {
							if lit, ok := n.Args[len(n.Args)-1].(*ast.BasicLit); ok {
								add(lit, j)
							} else {
								bad = append(bad, fset.Position(n.Pos()).String()+": "+j)
							}
						}
					}
				}
			}
		case *ast.DeclStmt: // a const or var inside a function
			if gd, ok := n.Decl.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				for _, spec := range gd.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						visitArgs(v)
					}
				}
			}
		case *ast.BasicLit:
			// The shared folder is never a fair literal, wherever it is.
			if v, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING &&
				(strings.Contains(v, sharedDir) || strings.Contains(v, workShared)) {
				add(n, v)
			}
		}
		return true
	})
	return bad, nil
}

// TestNoPathOutsideModule fails when any Go file, test script or shell
// script of the module reads a path outside the module: a fresh clone has
// nothing beside it, so such a test either fails there or, worse, skips
// and hides that it never ran. Data a test needs lives in its package's
// testdata/ with its licence. .ci/run proves the same thing dynamically by
// running the suite in a clone with no siblings.
func TestNoPathOutsideModule(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	self, err := filepath.Abs("paths_test.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || (p != root && strings.HasPrefix(d.Name(), ".") && d.Name() != ".ci") {
				return filepath.SkipDir
			}
			return nil
		}
		var bad []string
		switch ext := filepath.Ext(p); {
		case ext == ".go":
			if p == self {
				return nil // the checker names what it looks for
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			bad, err = checkGoSource(root, filepath.Dir(p), p, src)
			if err != nil {
				return err
			}
			checked++
		case ext == ".txtar" || ext == ".sh" || d.Name() == "run" && filepath.Base(filepath.Dir(p)) == ".ci":
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(src), "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "#") {
					continue // a comment may say what is not done
				}
				if strings.Contains(line, sharedDir) || strings.Contains(line, workShared) {
					bad = append(bad, p+":"+strconv.Itoa(i+1)+": "+strings.TrimSpace(line))
				}
			}
		}
		for _, b := range bad {
			t.Errorf("reads outside the module (copy the data into the package's testdata/): %s", b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked under %s", checked, root)
	}
}

func TestCheckGoSource(t *testing.T) {
	root := filepath.FromSlash("/m")
	dir := filepath.Join(root, "review")
	tests := []struct {
		name, src string
		bad       int
	}{
		{"const to shared", `package x; const d = "../` + sharedDir + `/testdata/t"`, 1},
		{"const escaping module", `package x; const d = "../../other/data"`, 1},
		{"var escaping module", `package x; var d = "../../" + "other"`, 1},
		{"read call escaping", `package x; import "os"; func f() { os.ReadFile("../../x.json") }`, 1},
		{"join escaping", `package x; import "path/filepath"; func f() { filepath.Join("../..", "x") }`, 1},
		{"local const", `package x; func f() { const d = "../../corpora"; _ = d }`, 1},
		{"shared anywhere", `package x; func f() { s := "see ` + sharedDir + `/x"; _ = s }`, 1},
		{"join of parts", `package x; import "path/filepath"; func f(dir, sub string) { filepath.Join(dir, "..", "shared", sub) }`, 1},
		{"inside the module", `package x; import "os"; const d = "testdata/t"; func f() { os.ReadFile("../lint/testdata/x") }`, 0},
		{"traversal as input", `package x; func f() { weird := "../../etc/passwd"; g(weird) }`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad, err := checkGoSource(root, dir, "x.go", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if len(bad) != tt.bad {
				t.Errorf("got %d findings %q, want %d", len(bad), bad, tt.bad)
			}
		})
	}
}
