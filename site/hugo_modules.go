package site

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/problem"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// maxModuleDepth bounds the chain of themes that import themes.
const maxModuleDepth = 10

// readModules reads the configuration of the site's themes and modules (`theme`, module.imports,
// and theirs in turn) and merges what Hugo merges from them that changes paths: their
// outputFormats and mediaTypes, each name the project does not define (loadModules and the
// "shallow" merge strategy in config/). Their other keys (uglyURLs, outputs, taxonomies,
// pagination) do not reach the site, as in Hugo. A module is looked for where Hugo looks:
// module.replacements, _vendor, the hugo.work workspace, the project's go.mod replace lines, Hugo's
// module cache at the version go.mod requires, themesDir. An import found in none of them is kept
// in r.missing, with the place that imports it: a warning says that its configuration was not
// read, and an outputs name that only it could define is an error (checkOutputs).
func (r *hugoConfigReader) readModules() error {
	if len(moduleImports(r.cfg)) == 0 {
		return nil // no module is looked for: go.mod and the workspace are not read
	}
	res := r.moduleResolver()
	seen := map[string]bool{}
	type imported struct {
		path string
		by   *hugoConfigReader // the configuration that imports it
	}
	var queue []imported
	for _, imp := range moduleImports(r.cfg) {
		queue = append(queue, imported{imp, r})
	}
	for depth := 0; len(queue) > 0 && depth < maxModuleDepth; depth++ {
		var next []imported
		for _, imp := range queue {
			dir := res.dir(imp.path)
			if dir == "" && !slices.ContainsFunc(r.missing, func(m missingModule) bool { return m.path == imp.path }) {
				r.missing = append(r.missing, imp.by.importPlace(imp.path))
			}
			if dir == "" || seen[dir] {
				continue
			}
			seen[dir] = true
			mr := &hugoConfigReader{s: r.s, cfg: map[string]any{}, root: dir}
			if err := mr.readRoot(); err != nil {
				return err
			}
			if err := mr.readDir(filepath.Join(dir, "config", "_default")); err != nil {
				return err
			}
			mm := imp.by.importMounts(imp.path)
			mm.dir = dir
			if mm.mounts == nil && !mm.none {
				if mod, ok := mr.cfg["module"].(map[string]any); ok {
					mm.mounts, _ = mod["mounts"].([]any)
				}
			}
			r.modules = append(r.modules, mm)
			mergeShallow(r.cfg, "outputformats", mr.cfg)
			mergeShallow(r.cfg, "mediatypes", mr.cfg)
			for _, p := range moduleImports(mr.cfg) {
				next = append(next, imported{p, mr})
			}
		}
		queue = next
	}
	return nil
}

// missingModule is a module import that robotsmith found nowhere Hugo looks, and where it is
// imported.
type missingModule struct {
	path string
	file string
	line int
}

// notFound says where robotsmith looked for a module it did not find, and what to do.
const notFound = "is not where Hugo looks for it (module.replacements, _vendor, a workspace, go.mod's " +
	"replace lines, Hugo's module cache at go.mod's version, themesDir): run robotsmith with Hugo's " +
	"environment (HUGO_CACHEDIR, HUGO_MODULE_REPLACEMENTS, HUGO_MODULE_WORKSPACE), or vendor it (hugo mod vendor)"

// missingError names the modules robotsmith did not find, each with the place that imports it.
func missingError(ms []missingModule) string {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteString(", ")
		}
		place := m.file
		if m.line > 0 {
			place = fmt.Sprintf("%s:%d", m.file, m.line)
		}
		fmt.Fprintf(&b, "module %s (%s)", cutText(m.path), place)
	}
	return b.String() + " " + notFound
}

// warnMissing is a warning for each module robotsmith did not find, at the line that imports it:
// the output formats and media types it may define are not read, so where their files go is not
// known either.
func (h *hugoConfig) warnMissing() {
	for _, m := range h.missing {
		h.warnings = append(h.warnings, &frontmatter.Error{File: m.file, Line: m.line, Code: problem.ModuleNotFound,
			Err: fmt.Errorf("module %s: its output formats and media types are not read: it %s", cutText(m.path), notFound)})
	}
}

// importPlace is where r's configuration imports the module path: its module.imports entry, else
// its theme.
func (r *hugoConfigReader) importPlace(path string) missingModule {
	m := missingModule{path: path, file: r.s.rel(r.root)}
	if doc, list := r.locate("module", "imports"); doc != nil {
		for _, item := range list.List {
			if v, _ := item.FoldValue("path").Scalar(); v == path {
				m.file, m.line = doc.File, doc.Line(item.FoldValue("path").Off)
				return m
			}
			if v, _ := item.Scalar(); v == path {
				m.file, m.line = doc.File, doc.Line(item.Off)
				return m
			}
		}
	}
	if doc, n := r.locate("theme"); doc != nil {
		m.file, m.line = doc.File, doc.Line(n.Off)
		for _, item := range n.List {
			if v, _ := item.Scalar(); v == path {
				m.line = doc.Line(item.Off)
			}
		}
	}
	return m
}

// moduleMounts is a module found and what it mounts: mounts nil for its default mounts.
type moduleMounts struct {
	dir    string
	mounts []any
	none   bool // the import says noMounts
}

// importMounts is what r's configuration's import of the module path says of its mounts: its
// module.imports entry's mounts (nil: none given) and noMounts. A theme is imported with none.
func (r *hugoConfigReader) importMounts(path string) moduleMounts {
	mod, _ := r.cfg["module"].(map[string]any)
	imports, _ := mod["imports"].([]any)
	for _, imp := range imports {
		if v, ok := imp.(map[string]any); ok && strOr(v["path"], "") == path {
			mounts, _ := v["mounts"].([]any)
			return moduleMounts{mounts: mounts, none: toBool(v["nomounts"])}
		}
	}
	return moduleMounts{}
}

// moduleImports are the module paths a configuration imports: its theme(s), then module.imports.
func moduleImports(cfg map[string]any) []string {
	out := toStrings(cfg["theme"])
	if mod, ok := cfg["module"].(map[string]any); ok {
		imports, _ := mod["imports"].([]any)
		for _, imp := range imports {
			switch v := imp.(type) {
			case string:
				out = append(out, v)
			case map[string]any:
				if p := strOr(v["path"], ""); p != "" && !toBool(v["disable"]) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// moduleResolver finds a module's folder on disk, in Hugo's order (modules/collect.go): a
// module.replacements entry (a folder relative to themesDir), else _vendor, else what Go resolves
// (the workspace's modules, the go.mod's replace lines, else the version go.mod requires in Hugo's
// module cache), else themesDir.
type moduleResolver struct {
	root, themesDir string
	replaced        map[string]string // module.replacements: module path -> folder
	gomods          map[string]string // module path -> folder, as Go resolves it on disk
}

func (r *hugoConfigReader) moduleResolver() moduleResolver {
	root := r.s.Root
	res := moduleResolver{root: root, themesDir: r.s.abs(strOr(r.cfg["themesdir"], "themes")),
		replaced: map[string]string{}, gomods: map[string]string{}}
	mod, _ := r.cfg["module"].(map[string]any)
	if mf := r.readGoMod(filepath.Join(root, "go.mod")); mf != nil {
		cache := r.goModCache()
		for _, req := range mf.Require {
			if p, err := module.EscapePath(req.Mod.Path); err == nil && cache != "" {
				if v, err := module.EscapeVersion(req.Mod.Version); err == nil {
					res.gomods[req.Mod.Path] = filepath.Join(cache, filepath.FromSlash(p)+"@"+v)
				}
			}
		}
		for _, rep := range mf.Replace {
			switch {
			case modfile.IsDirectoryPath(rep.New.Path):
				res.gomods[rep.Old.Path] = abs(root, rep.New.Path)
			default: // another module's version: Go takes it from the cache; robotsmith does not read it
				delete(res.gomods, rep.Old.Path)
			}
		}
	}
	if ws := strOr(mod["workspace"], r.s.opt.Env("HUGO_MODULE_WORKSPACE")); ws != "" && ws != "off" {
		ws = abs(root, ws)
		if b, err := os.ReadFile(ws); err == nil {
			r.s.readSource(Source{Path: ws, Kind: SourceModule})
			if wf, err := modfile.ParseWork(ws, b, nil); err == nil {
				for _, u := range wf.Use {
					dir := abs(filepath.Dir(ws), u.Path)
					if mf := r.readGoMod(filepath.Join(dir, "go.mod")); mf != nil && mf.Module != nil {
						res.gomods[mf.Module.Mod.Path] = dir
					}
				}
			}
		}
	}
	reps := toStrings(mod["replacements"])
	if v := r.s.opt.Env("HUGO_MODULE_REPLACEMENTS"); v != "" {
		reps = append(reps, v)
	}
	for _, list := range reps {
		for _, rep := range strings.Split(list, ",") {
			from, to, ok := strings.Cut(rep, "->")
			if ok {
				res.replaced[strings.TrimSpace(from)] = abs(res.themesDir, strings.TrimSpace(to))
			}
		}
	}
	return res
}

// goModCache is the folder where the Go runs Hugo makes for its modules keep them (GOPATH set to
// the cache's modules folder, its pkg/mod; modules/client.go, cache/filecache): the modules
// cache's dir (caches.modules.dir, ":cacheDir/modules" by default) under Hugo's cacheDir
// (HUGO_CACHEDIR, else cacheDir in the configuration, else Netlify's build cache on a Netlify
// preview, else hugo_cache in the user's cache folder; helpers.GetCacheDir), then
// filecache/modules/pkg/mod. "" when the user's cache folder is not known.
func (r *hugoConfigReader) goModCache() string {
	env := r.s.opt.Env
	cacheDir := env("HUGO_CACHEDIR")
	if len(cacheDir) <= 1 {
		cacheDir = strOr(r.cfg["cachedir"], "")
	}
	if len(cacheDir) <= 1 && env("NETLIFY") == "true" && env("PULL_REQUEST") != "" && env("DEPLOY_PRIME_URL") != "" {
		cacheDir = "/opt/build/cache/hugo_cache"
	}
	if len(cacheDir) <= 1 {
		user := userCacheDir(env)
		if user == "" {
			return ""
		}
		cacheDir = filepath.Join(user, "hugo_cache")
	}
	dir := ":cacheDir/modules"
	if caches, ok := r.cfg["caches"].(map[string]any); ok {
		if m, ok := caches["modules"].(map[string]any); ok {
			dir = strOr(m["dir"], dir)
		}
	}
	parts := strings.Split(filepath.ToSlash(filepath.Clean(dir)), "/")
	for i, part := range parts {
		switch strings.ToLower(part) {
		case ":cachedir":
			parts[i] = filepath.ToSlash(cacheDir)
		case ":project":
			parts[i] = filepath.Base(r.s.Root)
		case ":resourcedir":
			return "" // a folder of resources/, which Hugo does not use for modules
		}
	}
	return filepath.Join(filepath.FromSlash(strings.Join(parts, "/")), "filecache", "modules", "pkg", "mod")
}

// userCacheDir is os.UserCacheDir read from env.
func userCacheDir(env func(string) string) string {
	switch runtime.GOOS {
	case "windows":
		return env("LocalAppData")
	case "darwin", "ios":
		if h := env("HOME"); h != "" {
			return filepath.Join(h, "Library", "Caches")
		}
		return ""
	case "plan9":
		if h := env("home"); h != "" {
			return filepath.Join(h, "lib", "cache")
		}
		return ""
	}
	if d := env("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		return d
	}
	if h := env("HOME"); h != "" {
		return filepath.Join(h, ".cache")
	}
	return ""
}

// dir is the module's folder, "" when it is not on disk where Hugo looks.
func (m moduleResolver) dir(path string) string {
	if dir, ok := m.replaced[path]; ok {
		return dir
	}
	cands := []string{
		filepath.Join(m.root, "_vendor", filepath.FromSlash(path)),
		m.gomods[path],
		filepath.Join(m.themesDir, filepath.FromSlash(path)),
	}
	for _, c := range cands {
		if fi, err := os.Stat(c); c != "" && err == nil && fi.IsDir() {
			return c
		}
	}
	return ""
}

// readGoMod reads and parses the go.mod file p; nil when it cannot.
func (r *hugoConfigReader) readGoMod(p string) *modfile.File {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	r.s.readSource(Source{Path: p, Kind: SourceModule})
	f, err := modfile.Parse(p, b, nil)
	if err != nil {
		return nil
	}
	return f
}

// abs resolves p against base unless it is absolute.
func abs(base, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, filepath.FromSlash(p))
}
