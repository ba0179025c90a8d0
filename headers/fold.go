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

// foldable reports whether folder p may become the rule p+"*": its files
// share one decision other than the default, and the rule's path is one
// Cloudflare reads literally.
func (fo *folder) foldable() bool {
	return !fo.mixed && fo.key != "" && fo.count >= 2 && pathProblem(fo.path, Cloudflare) == ""
}

// foldRules returns Cloudflare rules for entries within budget rules: exact
// paths when they fit, else as few folds as needed, largest first. Only
// folders whose files all share one decision are folded, and no two rules
// match the same path, so no file's headers change. The choice is optimal
// for rules of the form exact-path and /folder/*: a folder that holds two
// decisions cannot be one rule, and folding a folder is never worse than
// folding the folders inside it.
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
	fs := folders(entries)
	var cands []*folder
	for p, fo := range fs {
		if fo.foldable() && !hasFoldableAncestor(p, fs) {
			cands = append(cands, fo)
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].count != cands[j].count {
			return cands[i].count > cands[j].count
		}
		return cands[i].path < cands[j].path
	})
	var chosen []*folder
	total := need
	for _, c := range cands {
		if total <= budget {
			break
		}
		chosen = append(chosen, c)
		total -= c.count - 1
	}
	rules := assemble(entries, chosen)
	if len(rules) > budget {
		return nil, &LimitError{Needed: len(rules) + 1 + user, Limit: MaxRules, User: user, Folders: suggest(rules, fs, budget)}
	}
	return rules, nil
}

func hasFoldableAncestor(p string, fs map[string]*folder) bool {
	for i := len(p) - 2; i >= 0; i-- {
		if p[i] == '/' {
			if a := fs[p[:i+1]]; a != nil && a.foldable() {
				return true
			}
		}
	}
	return false
}

// assemble returns a rule for each chosen folder and for each file with
// lines outside them, sorted by path.
func assemble(entries []entry, chosen []*folder) []rule {
	var rules []rule
	for _, c := range chosen {
		rules = append(rules, rule{path: c.path + "*", lines: c.lines})
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

func underAny(p string, chosen []*folder) bool {
	for _, c := range chosen {
		if strings.HasPrefix(p, c.path) {
			return true
		}
	}
	return false
}

// suggest picks folders below the root whose files hold several decisions,
// most rules first, without nesting, until giving each one decision (one
// rule) would bring the rules within budget.
func suggest(rules []rule, fs map[string]*folder, budget int) []FolderCost {
	var mixed []FolderCost
	for p, fo := range fs {
		if p == "/" || !fo.mixed || pathProblem(p, Cloudflare) != "" {
			continue
		}
		n := 0
		for _, r := range rules {
			if strings.HasPrefix(r.path, p) {
				n++
			}
		}
		if n >= 2 {
			mixed = append(mixed, FolderCost{Folder: p, Rules: n})
		}
	}
	sort.Slice(mixed, func(i, j int) bool {
		if mixed[i].Rules != mixed[j].Rules {
			return mixed[i].Rules > mixed[j].Rules
		}
		return mixed[i].Folder < mixed[j].Folder
	})
	var out []FolderCost
	total := len(rules)
	for _, m := range mixed {
		if total <= budget {
			break
		}
		nested := false
		for _, o := range out {
			if strings.HasPrefix(m.Folder, o.Folder) || strings.HasPrefix(o.Folder, m.Folder) {
				nested = true
				break
			}
		}
		if nested {
			continue
		}
		out = append(out, m)
		total -= m.Rules - 1
	}
	return out
}
