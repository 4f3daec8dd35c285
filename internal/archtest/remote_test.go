package archtest

import (
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// remoteRoom is the shared remote's room, above the domain
// (docs/architecture.md §1, §3.1).
const remoteRoom = "skillrepo/remote"

// TestRemoteRoomAboveTheDomain keeps the shared remote a room above the
// domain that reaches git only through it, and the domain reaching git
// only through the engine. The domain does not depend on the room (it
// hands the room a handle, skillrepo.Remote, and never calls back) and
// imports no os/exec (it runs no program: the git binary is the
// engine's transport, gitstore's transport_git.go). The room imports
// neither the engine nor go-git and runs no git of its own: no call of
// os/exec with the literal "git" (it runs only the hosts' programs, gh
// and glab).
func TestRemoteRoomAboveTheDomain(t *testing.T) {
	pkgs := listPackages(t)
	d, ok := pkgs[module+"/"+domain]
	if !ok {
		t.Fatalf("package %s not found", domain)
	}
	if slices.Contains(d.Deps, module+"/"+remoteRoom) {
		t.Errorf("the domain %s depends on its remote room %s: the room sits above it and takes the skillrepo.Remote handle", domain, remoteRoom)
	}
	if slices.Contains(d.Imports, "os/exec") {
		t.Errorf("the domain %s imports os/exec: it runs no program; git runs in the engine's transport (gitstore's transport_git.go)", domain)
	}
	p, ok := pkgs[module+"/"+remoteRoom]
	if !ok {
		t.Fatalf("room %s not found: keep the name current", remoteRoom)
	}
	for _, imports := range [][]string{p.Imports, p.TestImports, p.XTestImports} {
		for _, imp := range imports {
			if imp == module+"/"+engine || strings.HasPrefix(imp, "github.com/go-git/") {
				t.Errorf("%s imports %s: the remote room reaches git through the domain's handle (the engine's transports)", remoteRoom, imp)
			}
		}
	}
	for _, f := range parseDir(t, p.Dir, false) {
		name := importName(f.file, "os/exec", "exec")
		if name == "" {
			continue
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != name {
				return true
			}
			for _, a := range call.Args {
				if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, _ := strconv.Unquote(lit.Value); s == "git" {
						t.Errorf("%s: %s runs git itself (exec.%s): ask the domain's transport (skillrepo.Remote.Transport)", f.name, remoteRoom, sel.Sel.Name)
					}
				}
			}
			return true
		})
	}
}
