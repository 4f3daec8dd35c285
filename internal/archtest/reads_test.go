package archtest

import (
	"go/ast"
	"slices"
	"strings"
	"testing"
)

// unboundedReaders are the packages that may read a whole file or stream
// with os.ReadFile or an io.ReadAll not wrapped in io.LimitReader, each
// for a reason:
//   - internal/boundedread is the bound itself;
//   - the engine reads git's own small files inside .git (HEAD, a ref, a
//     lock's nonce), the kernel's /proc files and objects whose size the
//     object header gave;
//   - test servers and bench tools read files of their own making.
var unboundedReaders = []string{
	"internal/boundedread",
	engine,
	"internal/gitserver",
	"internal/fakemodel",
	"goals", // the judge's own request body, built in this process
	"bench/indexfloor",
	"bench/cmd/lintplacement",
}

// TestNoUnboundedReads holds the rule "never read unbounded input into
// memory" (docs/architecture.md §1): outside unboundedReaders, code reads
// what a person, an agent or a remote hands us through
// internal/boundedread (regular files only, at most a limit) or through an
// io.LimitReader, never os.ReadFile or a bare io.ReadAll. Tests may.
func TestNoUnboundedReads(t *testing.T) {
	for path, p := range listPackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if slices.Contains(unboundedReaders, rel) {
			continue
		}
		for _, pf := range parseDir(t, p.Dir, false) {
			osName := importName(pf.file, "os", "os")
			ioName := importName(pf.file, "io", "io")
			ast.Inspect(pf.file, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch {
				case isCall(call, osName, "ReadFile"):
					t.Errorf("%s: %s: os.ReadFile reads without a bound: use internal/boundedread", rel, pf.name)
				case isCall(call, ioName, "ReadAll") && !limited(call, ioName):
					t.Errorf("%s: %s: io.ReadAll of a reader with no io.LimitReader: bound it", rel, pf.name)
				}
				return true
			})
		}
	}
}

// isCall reports whether call is pkg.fn(…) (pkg "" when not imported).
func isCall(call *ast.CallExpr, pkg, fn string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || pkg == "" || sel.Sel.Name != fn {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// limited reports whether io.ReadAll's argument is an io.LimitReader(…).
func limited(call *ast.CallExpr, ioName string) bool {
	if len(call.Args) != 1 {
		return false
	}
	inner, ok := call.Args[0].(*ast.CallExpr)
	return ok && isCall(inner, ioName, "LimitReader")
}
