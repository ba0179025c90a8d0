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
	key   string
	lines []string
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
				m[p] = &folder{path: p, count: 1, key: e.key, lines: e.lines}
				continue
			}
			fo.count++
			if fo.key != e.key {
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
	key            string
	lines          []string
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

// groups returns every candidate group of entries.
func groups(entries []entry) []*group {
	m := map[[2]string]*group{}
	add := func(folder, suffix string, e entry) {
		k := [2]string{folder, suffix}
		g := m[k]
		if g == nil {
			m[k] = &group{folder: folder, suffix: suffix, count: 1, key: e.key, lines: e.lines}
			return
		}
		g.count++
		if g.key != e.key {
			g.mixed = true
		}
	}
	for _, e := range entries {
		x := ext(e.path)
		for i := 0; i < len(e.path); i++ {
			if e.path[i] != '/' {
				continue
			}
			add(e.path[:i+1], "", e)
			if x != "" && len(e.path) >= i+1+len(x) {
				add(e.path[:i+1], x, e)
			}
		}
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
func foldRules(entries []entry, budget, user int) ([]rule, error) {
	need := 0
	for _, e := range entries {
		if e.key != "" {
			need++
		}
	}
	if need <= budget {
		return assemble(entries, nil), nil
	}
	var cands []*group
	for _, g := range groups(entries) {
		if !g.mixed && g.key != "" && g.count >= 2 && pathProblem(g.folder+g.suffix, Cloudflare) == "" {
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
	rules := assemble(entries, chosen)
	if len(rules) > budget {
		return nil, &LimitError{Needed: len(rules) + 1 + user, Limit: MaxRules, User: user, Folders: suggest(rules, folders(entries), budget)}
	}
	return rules, nil
}

// assemble returns a rule for each chosen folder and for each file with
// lines outside them, sorted by path.
func assemble(entries []entry, chosen []*group) []rule {
	var rules []rule
	for _, c := range chosen {
		rules = append(rules, rule{path: c.rulePath(), lines: c.lines})
	}
	for _, e := range entries {
		if e.key == "" || underAny(e.path, chosen) {
			continue
		}
		rules = append(rules, rule{path: e.path, lines: e.lines})
	}
	sort.Slice(rules, func(i, j int) bool { return rules[i].path < rules[j].path })
	return rules
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
func suggest(rules []rule, fs map[string]*folder, budget int) []FolderCost {
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
		for _, r := range rules {
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
	total := len(rules)
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
