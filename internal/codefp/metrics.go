package codefp

import (
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"
)

// MetricNames describes the metric names code can write into records,
// read off the code itself: every assignment rec.Metrics[expr] = … in the
// files a root reaches gives a pattern, expr's string literals kept and
// everything else a wildcard ("ape_mean"+suffix → ape_mean*). Open is
// true when some write cannot be read that way (the map passed to a
// function, assigned whole from a non-literal, or a key that is all
// wildcard): then any name may appear and nothing can be rejected.
type MetricNames struct {
	Open bool
	// Why names the first write that opened the set (file and line).
	Why      string
	Patterns []string
	res      []*regexp.Regexp
}

// Match reports whether name can be a metric of the code.
func (m *MetricNames) Match(name string) bool {
	if m.Open {
		return true
	}
	for _, re := range m.res {
		if re.MatchString(name) {
			return true
		}
	}
	return false
}

// Metrics returns the metric names the code reached from root can write.
func (ix *Index) Metrics(root string) (*MetricNames, error) {
	paths, err := ix.Files(root)
	if err != nil {
		return nil, err
	}
	sc := &metricScan{m: &MetricNames{}, seen: map[string]bool{}}
	for _, p := range paths {
		f := ix.files[p]
		// Records' metrics are written by the experiments; the rest
		// of the module only reads them (or, in internal/report,
		// decodes them).
		if f.ast == nil || !strings.HasPrefix(p, "experiments/") {
			continue
		}
		sc.file(p, f)
	}
	m := sc.m
	for _, p := range m.Patterns {
		parts := strings.Split(p, "*")
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		m.res = append(m.res, regexp.MustCompile("^"+strings.Join(parts, ".*")+"$"))
	}
	return m, nil
}

// metricScan collects the metric names Metrics finds, file by file.
type metricScan struct {
	m    *MetricNames
	seen map[string]bool
	cur  string         // the file being read
	fset *token.FileSet // its file set
	at   ast.Node       // the last node visited
}

// open marks the set of names open, with where, the first time.
func (sc *metricScan) open(n ast.Node) {
	if sc.m.Open {
		return
	}
	sc.m.Open = true
	sc.m.Why = sc.cur
	if sc.fset != nil && n != nil {
		sc.m.Why = sc.fset.Position(n.Pos()).String()
	}
}

// add records the name pattern p; one that is all wildcard opens the set.
func (sc *metricScan) add(p string) {
	if strings.Trim(p, "*") == "" {
		sc.open(sc.at)
		return
	}
	if !sc.seen[p] {
		sc.seen[p] = true
		sc.m.Patterns = append(sc.m.Patterns, p)
	}
}

// file reads the metric writes of the file p.
func (sc *metricScan) file(p string, f *file) {
	// mt := r.Metrics makes mt an alias: writes through it count.
	aliases := map[string]bool{}
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok && len(a.Lhs) == len(a.Rhs) {
			for i, r := range a.Rhs {
				if id, ok := a.Lhs[i].(*ast.Ident); ok && isMetrics(r, nil) {
					aliases[id.Name] = true
				}
			}
		}
		return true
	})
	isMap := func(e ast.Expr) bool { return isMetrics(e, aliases) }
	sc.cur, sc.fset = p, f.fset
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if n != nil {
			sc.at = n
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if ix, ok := lhs.(*ast.IndexExpr); ok && isMap(ix.X) {
					sc.add(pattern(ix.Index))
				} else if isMetrics(lhs, nil) {
					if len(n.Rhs) == len(n.Lhs) {
						literalKeys(n.Rhs[i], sc.add)
					} else {
						sc.open(n)
					}
				}
			}
		case *ast.IncDecStmt:
			if ix, ok := n.X.(*ast.IndexExpr); ok && isMap(ix.X) {
				sc.add(pattern(ix.Index))
			}
		case *ast.CallExpr:
			for _, a := range n.Args {
				if isMap(a) && !isLen(n) {
					sc.open(n)
				}
			}
		}
		return true
	})
}

// isMetrics reports whether e is x.Metrics or one of its aliases.
func isMetrics(e ast.Expr, aliases map[string]bool) bool {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		return e.Sel.Name == "Metrics"
	case *ast.Ident:
		return aliases[e.Name]
	}
	return false
}

func isLen(c *ast.CallExpr) bool {
	id, ok := c.Fun.(*ast.Ident)
	return ok && (id.Name == "len" || id.Name == "delete")
}

// literalKeys adds the keys of a map literal; anything else opens.
func literalKeys(e ast.Expr, add func(string)) {
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		add("*")
		return
	}
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			add("*")
			return
		}
		add(pattern(kv.Key))
	}
}

var verb = regexp.MustCompile(`%[^a-zA-Z%]*[a-zA-Z]`)

// pattern turns a key expression into a glob: string literals kept,
// everything else "*".
func pattern(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			if s, err := strconv.Unquote(e.Value); err == nil {
				return strings.ReplaceAll(s, "*", "")
			}
		}
	case *ast.ParenExpr:
		return pattern(e.X)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			return join(pattern(e.X), pattern(e.Y))
		}
	case *ast.CallExpr:
		if s, ok := e.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Sprintf" && len(e.Args) > 0 {
			if lit, ok := e.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if f, err := strconv.Unquote(lit.Value); err == nil {
					return join(verb.ReplaceAllString(strings.ReplaceAll(f, "*", ""), "*"))
				}
			}
		}
	}
	return "*"
}

func join(parts ...string) string {
	s := strings.Join(parts, "")
	for strings.Contains(s, "**") {
		s = strings.ReplaceAll(s, "**", "*")
	}
	return s
}
