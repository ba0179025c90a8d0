package headers

import (
	"sort"
	"strings"
)

// folder is a URL folder ("/photos/2024/") and what its files share.
// Cloudflare's rule "/photos/2024/*" matches every path that starts with
// "/photos/2024/", the folder's own page included, and no other.
type folder struct {
	path  string
	count int  // files under it
	mixed bool // its files do not all have the same lines
	set   int32
}

// folders returns every folder that holds a file, keyed by path.
func folders(entries []entry) map[string]*folder {
	m := map[string]*folder{}
	for _, e := range entries {
		for i := 0; i < len(e.path); i++ {
			if e.path[i] != '/' {
				continue
			}
			p := e.path[:i+1]
			fo := m[p]
			if fo == nil {
				m[p] = &folder{path: p, count: 1, set: e.set}
				continue
			}
			fo.count++
			if fo.set != e.set {
				fo.mixed = true
			}
		}
	}
	return m
}

// group is a candidate fold: the files under folder whose path ends with
// suffix ("" or an extension such as ".jpg"), written as the Cloudflare rule
// folder+"*"+suffix. Its one '*' is greedy and crosses '/', so the rule
// matches exactly the paths with that prefix and suffix.
type group struct {
	folder, suffix string
	count          int
	mixed          bool
	set            int32
}

func (g *group) rulePath() string { return g.folder + "*" + g.suffix }

func (g *group) covers(p string) bool {
	return strings.HasPrefix(p, g.folder) && strings.HasSuffix(p, g.suffix) && len(p) >= len(g.folder)+len(g.suffix)
}

// ext returns the extension of p's last segment (".jpg"), or "".
func ext(p string) string {
	last := p[strings.LastIndexByte(p, '/')+1:]
	if i := strings.LastIndexByte(last, '.'); i > 0 {
		return last[i:]
	}
	return ""
}

// groupKey names a candidate fold.
type groupKey struct{ folder, suffix string }

// prefixes calls fn with every group that covers p: each folder above it, alone and with p's
// extension.
func prefixes(p string, fn func(groupKey)) {
	x := ext(p)
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		fn(groupKey{p[:i+1], ""})
		if x != "" && len(p) >= i+1+len(x) {
			fn(groupKey{p[:i+1], x})
		}
	}
}

// groups returns the candidate groups of entries: those that hold a file with lines, since a fold
// of default files is never a candidate. A default file under a group makes it mixed.
func groups(entries []entry) []*group {
	m := map[groupKey]*group{}
	for _, e := range entries {
		if e.set == 0 {
			continue
		}
		prefixes(e.path, func(k groupKey) {
			g := m[k]
			if g == nil {
				m[k] = &group{folder: k.folder, suffix: k.suffix, count: 1, set: e.set}
				return
			}
			g.count++
			if g.set != e.set {
				g.mixed = true
			}
		})
	}
	for _, e := range entries {
		if e.set != 0 {
			continue
		}
		prefixes(e.path, func(k groupKey) {
			if g := m[k]; g != nil {
				g.count++
				g.mixed = true
			}
		})
	}
	out := make([]*group, 0, len(m))
	for _, g := range m {
		out = append(out, g)
	}
	return out
}

// foldRules returns Cloudflare rules for entries within budget rules: exact
// paths when they fit, else as few folds as needed. A fold is a rule
// /folder/* or /folder/*.ext over at least two files that all share one
// decision other than the default (so no other file's headers change), and
// no two chosen rules match the same file (so each file keeps exactly one
// robotsmith rule). Folds are chosen greedily, most files first, the more
// specific rule first among equals.
func foldRules(entries []entry, ds decisions, budget, user, usage int) ([]rule, error) {
	need := 0
	for _, e := range entries {
		if e.set != 0 {
			need++
		}
	}
	if need <= budget {
		return assemble(entries, ds, nil), nil
	}
	var cands []*group
	for _, g := range groups(entries) {
		if !g.mixed && g.set != 0 && g.count >= 2 && pathProblem(g.folder+g.suffix, Cloudflare) == "" {
			cands = append(cands, g)
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.count != b.count {
			return a.count > b.count
		}
		if len(a.folder) != len(b.folder) {
			return len(a.folder) > len(b.folder)
		}
		return a.rulePath() < b.rulePath()
	})
	var chosen []*group
	taken := map[string]bool{}
	total := need
	for _, c := range cands {
		if total <= budget {
			break
		}
		var files []string
		overlap := false
		for _, e := range entries {
			if c.covers(e.path) {
				if taken[e.path] {
					overlap = true
					break
				}
				files = append(files, e.path)
			}
		}
		if overlap {
			continue
		}
		for _, p := range files {
			taken[p] = true
		}
		chosen = append(chosen, c)
		total -= c.count - 1
	}
	rs := assemble(entries, ds, chosen)
	if len(rs) > budget {
		return nil, &LimitError{Needed: len(rs) + 1 + usage + user, Limit: MaxRules, User: user, Usage: usage, Folders: suggest(rs, folders(entries), budget)}
	}
	return rs, nil
}

// assemble returns a rule for each chosen folder and for each file with
// lines outside them, sorted by path.
func assemble(entries []entry, ds decisions, chosen []*group) []rule {
	var rs []rule
	for _, c := range chosen {
		rs = append(rs, rule{path: c.rulePath(), lines: ds.lines[c.set]})
	}
	for _, e := range entries {
		if e.set == 0 || underAny(e.path, chosen) {
			continue
		}
		rs = append(rs, rule{path: e.path, lines: ds.lines[e.set]})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].path < rs[j].path })
	return rs
}

func underAny(p string, chosen []*group) bool {
	for _, c := range chosen {
		if c.covers(p) {
			return true
		}
	}
	return false
}

// suggest picks folders below the root whose files hold several
// decisions, until giving each one decision (one rule) would bring the
// rules within budget. Folders whose rules are all exact paths come first:
// that is where rules pile up, while a folder that already holds folds of
// different decisions is better left as it is. Among those, most rules
// first; nested folders are not both picked.
func suggest(rs []rule, fs map[string]*folder, budget int) []FolderCost {
	type cand struct {
		FolderCost
		folds bool
	}
	var cands []cand
	for p, fo := range fs {
		if p == "/" || !fo.mixed || pathProblem(p, Cloudflare) != "" {
			continue
		}
		c := cand{FolderCost: FolderCost{Folder: p}}
		for _, r := range rs {
			if strings.HasPrefix(r.path, p) {
				c.Rules++
				c.folds = c.folds || strings.Contains(r.path, "*")
			}
		}
		if c.Rules >= 2 {
			cands = append(cands, c)
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.folds != b.folds {
			return !a.folds
		}
		if a.Rules != b.Rules {
			return a.Rules > b.Rules
		}
		return a.Folder < b.Folder
	})
	var out []FolderCost
	total := len(rs)
	for _, c := range cands {
		if total <= budget {
			break
		}
		nested := false
		for _, o := range out {
			if strings.HasPrefix(c.Folder, o.Folder) || strings.HasPrefix(o.Folder, c.Folder) {
				nested = true
				break
			}
		}
		if !nested {
			out = append(out, c.FolderCost)
			total -= c.Rules - 1
		}
	}
	return out
}
