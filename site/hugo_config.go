package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/problem"
)

// hugoConfig is what Hugo's configuration says about paths, read as Hugo v0.165 reads it
// (config/allconfig): keys are case-insensitive, config/_default and config/<environment> merge
// over the root hugo.* or config.* file.
type hugoConfig struct {
	env             string     // HUGO_ENVIRONMENT, "production" by default
	langs           []hugoLang // configured, enabled languages, by weight then code
	disabledLangs   []string   // configured languages that are disabled, sorted
	defaultLang     string     // defaultContentLanguage, "en"
	defaultInSubdir bool       // defaultContentLanguageInSubdir
	roots           []hugoRoot // content roots with the language they hold ("" = by file name)
	uglyAll         bool       // uglyURLs = true
	uglySections    map[string]bool
	permalinks      []hugoPermalink
	taxonomies      map[string]string // plural -> singular
	disableAliases  bool
	disableKinds    map[string]bool
	pagerPath       string // pagination.path, "page"
	keepCase        bool   // disablePathToLower
	pluralizeTitles bool   // pluralizeListTitles, true by default
	buildDrafts     bool
	buildFuture     bool
	buildExpired    bool
	cascades        []hugoCascade         // config-level cascade
	formats         map[string]hugoFormat // output formats by name
	kindOutputs     map[string][]string   // output format names by page kind
	warnings        []error               // from the configuration files, reported once
	missing         []missingModule       // module imports not found where Hugo looks
	raw             map[string]any
}

type hugoLang struct {
	code       string
	weight     int
	contentDir string            // absolute; "" when the language shares the site's contentDir
	taxonomies map[string]string // the language's own `taxonomies` (plural -> singular); nil: the site's
}

type hugoRoot struct {
	dir   string // absolute folder
	lang  string // language of every file in it; "" means by file name, else the default
	under string // slash folder inside the content tree it is mounted at ("" for the top)
}

// hugoPermalink is one permalinks rule; the first that matches a page wins.
type hugoPermalink struct {
	kind    string // page, section, taxonomy, term
	glob    string // over the page's Hugo path ("/blog/a"), doublestar syntax
	pattern string
}

// multilingual reports whether more than one language is configured.
func (h *hugoConfig) multilingual() bool { return len(h.langs) > 1 }

// prefix is the language's URL and file prefix (LanguagePrefix in config/allconfig).
func (h *hugoConfig) prefix(lang string) string {
	if h.defaultInSubdir && lang == h.defaultLang {
		return lang
	}
	if !h.multilingual() || lang == h.defaultLang {
		return ""
	}
	return lang
}

// langIndex is the language's place in weight order, len(langs) when it is not configured.
func (h *hugoConfig) langIndex(code string) int {
	for i, l := range h.langs {
		if l.code == code {
			return i
		}
	}
	return len(h.langs)
}

// langAt is the language at place i in weight order (langIndex): the default language at
// len(langs), where it is not configured.
func (h *hugoConfig) langAt(i int) string {
	if i < len(h.langs) {
		return h.langs[i].code
	}
	return h.defaultLang
}

// taxonomiesOf are the language's taxonomies, plural -> singular: its own `taxonomies` when its
// configuration has them (they replace the site's: Hugo v0.165 writes /fr/frtags/ and no
// /fr/tags/ for `languages.fr.taxonomies = {frtag = "frtags"}`), else the site's.
func (h *hugoConfig) taxonomiesOf(lang string) map[string]string {
	for _, l := range h.langs {
		if l.code == lang && l.taxonomies != nil {
			return l.taxonomies
		}
	}
	return h.taxonomies
}

// readTaxonomies reads a `taxonomies` map (singular = plural); ok is false when v is none.
func readTaxonomies(v any) (map[string]string, bool) {
	t, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	m := map[string]string{}
	for singular, plural := range t {
		if p := strOr(plural, ""); p != "" {
			m[strings.ToLower(p)] = singular
		}
	}
	return m, true
}

func (h *hugoConfig) hasLang(code string) bool {
	_, ok := h.langCode(code)
	return ok
}

// langCode is the configured language code equal to code: the configuration's own string.
func (h *hugoConfig) langCode(code string) (string, bool) {
	for _, l := range h.langs {
		if l.code == code {
			return l.code, true
		}
	}
	return "", false
}

func (h *hugoConfig) ugly(section string) bool {
	if h.uglyAll {
		return true
	}
	return h.uglySections[section]
}

var hugoConfigExts = []string{"toml", "yaml", "yml", "json"}

// hugoConfigNames are the file names whose keys are top-level keys, in a config folder too
// (config.DefaultConfigNames).
var hugoConfigNames = map[string]bool{"hugo": true, "config": true}

// openHugo reads the site's Hugo configuration: the root hugo.* (else config.*) file, then
// config/_default and config/<environment> over it (allconfig/load.go).
func (s *Site) openHugo() error {
	h := &hugoConfig{env: s.opt.Env("HUGO_ENVIRONMENT")}
	if h.env == "" {
		h.env = s.opt.Env("HUGO_ENV")
	}
	if h.env == "" {
		h.env = "production"
	}
	r := &hugoConfigReader{s: s, cfg: map[string]any{}, root: s.Root}
	if err := r.readRoot(); err != nil {
		return err
	}
	for _, dir := range []string{"_default", h.env} {
		if err := r.readDir(filepath.Join(s.Root, "config", dir)); err != nil {
			return err
		}
	}
	if err := r.readModules(); err != nil {
		return err
	}
	h.raw = r.cfg
	h.missing = r.missing
	if err := h.decode(s, r.cfg); err != nil {
		return err
	}
	h.addModuleRoots(r.modules)
	if err := r.checkOutputs(h); err != nil {
		return err
	}
	h.warnMissing()
	if r.cascade != nil {
		if err := h.readCascades(r.cascadeDoc, *r.cascade); err != nil {
			return err
		}
	}
	s.hugo = h
	s.gen = hugoGen{s}
	return nil
}

// hugoConfigReader merges Hugo's configuration files. The `cascade` key is kept as its file wrote
// it (the last file to set it wins), so that its entries are decoded with their lines by the one
// cascade decoder front matter uses too.
type hugoConfigReader struct {
	s          *Site
	root       string // the folder whose hugo.* or config.* is read: the site's, or a theme's
	cfg        map[string]any
	cascadeDoc *frontmatter.Document
	cascade    *frontmatter.Key
	places     []configPlace   // every file read, in order: where a merged key came from (locate)
	missing    []missingModule // module imports found nowhere Hugo looks (readModules)
	modules    []moduleMounts  // the modules found, in import order, with their mounts (readModules)
}

// configPlace is one configuration file read: its document, the value merged, and the key path it
// was merged at (nil: the top).
type configPlace struct {
	doc  *frontmatter.Document
	node *frontmatter.Node
	at   []string
}

// locate is the document and node that the merged configuration's value at keys (lower case) came
// from: the last file read that sets it, as the merge lets the last one win.
func (r *hugoConfigReader) locate(keys ...string) (*frontmatter.Document, *frontmatter.Node) {
	for i := len(r.places) - 1; i >= 0; i-- {
		p := r.places[i]
		if len(p.at) > len(keys) || !slices.Equal(p.at, keys[:len(p.at)]) {
			continue
		}
		n := p.node
		for _, k := range keys[len(p.at):] {
			n = n.FoldValue(k)
		}
		if n != nil {
			return p.doc, n
		}
	}
	return nil, nil
}

func (r *hugoConfigReader) readRoot() error {
	for _, base := range []string{"hugo", "config"} {
		for _, ext := range hugoConfigExts {
			p := filepath.Join(r.root, base+"."+ext)
			if !fileExists(p) {
				continue
			}
			return r.readFile(p, nil, "")
		}
	}
	return nil
}

// readDir reads one folder of config/ (and the folders in it) as Hugo's LoadConfigFromDir does:
// hugo.* and config.* hold top-level keys; "params.toml" is the key it is named after (a file
// holding only that key is unwrapped); "languages.en.toml" is languages.en; "menus.en.toml" and
// "params.en.toml" are languages.en.menus and languages.en.params.
func (r *hugoConfigReader) readDir(dir string) error {
	r.s.readSource(Source{Path: dir, Kind: SourceConfigDir, Dir: true})
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipDir
			}
			return err
		}
		ext := strings.TrimPrefix(path.Ext(d.Name()), ".")
		if d.IsDir() || !contains(hugoConfigExts, ext) {
			return nil
		}
		name := strings.ToLower(strings.TrimSuffix(d.Name(), "."+ext))
		if hugoConfigNames[name] {
			return r.readFile(p, nil, "")
		}
		key, lang, _ := strings.Cut(name, ".")
		keyPath := []string{key}
		if lang != "" {
			keyPath = []string{"languages", lang}
			if key == "menu" || key == "menus" || key == "params" {
				keyPath = append(keyPath, key)
			}
		}
		return r.readFile(p, keyPath, key)
	})
	if errors.Is(err, filepath.SkipDir) {
		return nil
	}
	return err
}

// readFile decodes one configuration file and merges it at keyPath (nil: at the top). A file
// whose only key is unwrap is unwrapped (cascade.yaml holding `cascade: [...]`).
func (r *hugoConfigReader) readFile(p string, keyPath []string, unwrap string) error {
	src, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	format := frontmatter.Format(strings.TrimPrefix(filepath.Ext(p), "."))
	if format == "yml" {
		format = frontmatter.YAML
	}
	doc, err := frontmatter.Decode(r.s.rel(p), src, format)
	if err != nil {
		return err
	}
	r.s.ConfigFiles = append(r.s.ConfigFiles, p)
	r.s.readSource(Source{Path: p, Kind: SourceConfig})
	node := doc.Root
	if unwrap != "" && len(node.Keys) == 1 && strings.EqualFold(node.Keys[0].Name, unwrap) {
		node = node.Keys[0].Value
	}
	if len(keyPath) == 0 {
		if k, ok := node.Fold("cascade"); ok {
			r.cascadeDoc, r.cascade = doc, &k
		}
	} else if len(keyPath) == 1 && keyPath[0] == "cascade" {
		r.cascadeDoc, r.cascade = doc, &frontmatter.Key{Name: "cascade", Off: node.Off, Value: node}
	}
	r.places = append(r.places, configPlace{doc: doc, node: node, at: keyPath})
	v := node.Any(true)
	for i := len(keyPath) - 1; i >= 0; i-- {
		v = map[string]any{keyPath[i]: v}
	}
	if m, ok := v.(map[string]any); ok {
		mergeInto(r.cfg, m)
	}
	return nil
}

// lowerKeys copies v with every map key lower-cased, as Hugo's config and front matter keys are
// case-insensitive.
func lowerKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[strings.ToLower(k)] = lowerKeys(x)
		}
		return m
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[strings.ToLower(fmt.Sprint(k))] = lowerKeys(x)
		}
		return m
	case []map[string]any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = lowerKeys(x)
		}
		return l
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = lowerKeys(x)
		}
		return l
	}
	return v
}

// mergeInto deep-merges src over dst: maps merge, everything else is replaced.
func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeInto(dm, sm)
				continue
			}
			cp := map[string]any{}
			mergeInto(cp, sm)
			dst[k] = cp
			continue
		}
		dst[k] = v
	}
}

func (h *hugoConfig) decode(s *Site, cfg map[string]any) error {
	contentDir := strOr(cfg["contentdir"], "content")
	publishDir := strOr(cfg["publishdir"], "public")
	if v := s.opt.Env("HUGO_PUBLISHDIR"); v != "" {
		publishDir = v
	}
	s.Content = s.abs(contentDir)
	s.Output = s.abs(publishDir)
	s.BaseURL = strOr(cfg["baseurl"], "")
	if v := s.opt.Env("HUGO_BASEURL"); v != "" {
		s.BaseURL = v
	}

	h.defaultLang = strings.ToLower(strOr(cfg["defaultcontentlanguage"], "en"))
	h.defaultInSubdir = toBool(cfg["defaultcontentlanguageinsubdir"])
	h.keepCase = toBool(cfg["disablepathtolower"])
	h.pluralizeTitles = cfg["pluralizelisttitles"] == nil || toBool(cfg["pluralizelisttitles"])
	h.disableAliases = toBool(cfg["disablealiases"])
	h.buildDrafts = toBool(cfg["builddrafts"]) || toBool(s.opt.Env("HUGO_BUILDDRAFTS"))
	h.buildFuture = toBool(cfg["buildfuture"]) || toBool(s.opt.Env("HUGO_BUILDFUTURE"))
	h.buildExpired = toBool(cfg["buildexpired"]) || toBool(s.opt.Env("HUGO_BUILDEXPIRED"))
	h.decodeLanguages(s, cfg)
	h.decodeRoots(s, cfg)
	s.Title = hugoTitle(cfg, h.defaultLang, s.opt.Env("HUGO_TITLE"))

	switch v := cfg["uglyurls"].(type) {
	case map[string]any:
		h.uglySections = map[string]bool{}
		for k, b := range v {
			h.uglySections[k] = toBool(b)
		}
	default:
		h.uglyAll = toBool(v)
	}
	if err := h.decodePermalinks(cfg["permalinks"]); err != nil {
		return &frontmatter.Error{File: s.Root, Code: problem.PermalinkInvalid, Err: fmt.Errorf("permalinks: %w", err)}
	}
	h.taxonomies = map[string]string{"tags": "tag", "categories": "category"}
	if t, ok := readTaxonomies(cfg["taxonomies"]); ok {
		h.taxonomies = t
	}
	h.disableKinds = map[string]bool{}
	for _, k := range toStrings(cfg["disablekinds"]) {
		h.disableKinds[strings.ToLower(k)] = true
	}
	h.decodeOutputs(cfg)
	h.pagerPath = "page"
	if p, ok := cfg["pagination"].(map[string]any); ok {
		h.pagerPath = strOr(p["path"], h.pagerPath)
	} else if p := strOr(cfg["paginatepath"], ""); p != "" {
		h.pagerPath = p
	}
	return nil
}

// decodeLanguages reads the configured, enabled languages in Hugo's order: by weight (0 last),
// then by code.
// hugoTitle is the site's title as Hugo gives it to the default language's pages (.Site.Title):
// HUGO_TITLE (env), else the default language's own title, else the configuration's.
func hugoTitle(cfg map[string]any, defaultLang, env string) string {
	if env != "" {
		return env
	}
	if langs, ok := cfg["languages"].(map[string]any); ok {
		for code, v := range langs {
			if lm, ok := v.(map[string]any); ok && strings.EqualFold(code, defaultLang) {
				if t := strOr(lm["title"], ""); t != "" {
					return t
				}
			}
		}
	}
	return strOr(cfg["title"], "")
}

func (h *hugoConfig) decodeLanguages(s *Site, cfg map[string]any) {
	disabled := map[string]bool{}
	for _, l := range toStrings(cfg["disablelanguages"]) {
		disabled[strings.ToLower(l)] = true
	}
	if langs, ok := cfg["languages"].(map[string]any); ok {
		for code, v := range langs {
			lm, _ := v.(map[string]any)
			if disabled[code] || toBool(lm["disabled"]) {
				h.disabledLangs = append(h.disabledLangs, code)
				continue
			}
			l := hugoLang{code: code, weight: toInt(lm["weight"])}
			l.taxonomies, _ = readTaxonomies(lm["taxonomies"])
			if cd := strOr(lm["contentdir"], ""); cd != "" {
				l.contentDir = s.abs(cd)
			}
			h.langs = append(h.langs, l)
		}
	}
	if len(h.langs) == 0 {
		h.langs = []hugoLang{{code: h.defaultLang}}
	}
	sort.Strings(h.disabledLangs)
	sort.Slice(h.langs, func(i, j int) bool {
		a, b := h.langs[i], h.langs[j]
		if a.weight != b.weight {
			if a.weight == 0 || b.weight == 0 {
				return b.weight == 0
			}
			return a.weight < b.weight
		}
		return a.code < b.code
	})
}

// decodeRoots finds the content roots. Module mounts with target "content" replace contentDir
// (modules/config.go adds the default mounts only when the project mounts nothing to content).
// The default mounts are one per language: its contentDir when it has its own, holding that
// language only, else the site's contentDir, holding every language by file name. So the site's
// contentDir is no root at all when every language has its own folder, and a folder no language
// names is not read.
func (h *hugoConfig) decodeRoots(s *Site, cfg map[string]any) {
	if mod, ok := cfg["module"].(map[string]any); ok {
		mounts, _ := mod["mounts"].([]any)
		h.roots = h.contentMounts(h.roots, mounts, s.Root)
	}
	if len(h.roots) > 0 {
		return
	}
	shared := false
	for _, l := range h.langs {
		if l.contentDir == "" || l.contentDir == s.Content {
			if !shared {
				h.roots = append(h.roots, hugoRoot{dir: s.Content})
				shared = true
			}
			continue
		}
		h.roots = append(h.roots, hugoRoot{dir: l.contentDir, lang: l.code})
	}
}

// contentMounts appends to roots the content roots of a module's mounts (module.mounts): those
// with target content or a folder in it, their source relative to the module's folder dir, of
// the language they name (lang, or sites.matrix.languages when it names one), left out when that
// language is not configured.
func (h *hugoConfig) contentMounts(roots []hugoRoot, mounts []any, dir string) []hugoRoot {
	for _, m := range mounts {
		mm, _ := m.(map[string]any)
		target := strings.Trim(filepath.ToSlash(strOr(mm["target"], "")), "/")
		under, ok := strings.CutPrefix(target, "content")
		if !ok || (under != "" && under[0] != '/') {
			continue
		}
		lang := strings.ToLower(strOr(mm["lang"], ""))
		if lang == "" {
			if sites, ok := mm["sites"].(map[string]any); ok {
				if matrix, ok := sites["matrix"].(map[string]any); ok {
					if ls := toStrings(matrix["languages"]); len(ls) == 1 {
						lang = strings.ToLower(ls[0])
					}
				}
			}
		}
		if lang != "" && !h.hasLang(lang) {
			continue
		}
		roots = append(roots, hugoRoot{dir: abs(dir, strOr(mm["source"], "")), lang: lang, under: strings.Trim(under, "/")})
	}
	return roots
}

// addModuleRoots adds the content roots of the themes and modules the site imports, after the
// project's (whose files Hugo takes over theirs), in the order they are imported: each one's
// content mounts (modules/collect.go applyMounts): the import's own mounts, else those of the
// module's configuration, else its content folder when it has one; none for an import with
// noMounts.
func (h *hugoConfig) addModuleRoots(mods []moduleMounts) {
	for _, m := range mods {
		switch {
		case m.none:
		case m.mounts != nil:
			h.roots = h.contentMounts(h.roots, m.mounts, m.dir)
		default:
			if fi, err := os.Stat(filepath.Join(m.dir, "content")); err == nil && fi.IsDir() {
				h.roots = append(h.roots, hugoRoot{dir: filepath.Join(m.dir, "content")})
			}
		}
	}
}

// Small conversions for decoded config values.

func strOr(v any, def string) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return def
	}
	return fmt.Sprint(v)
}

func toBool(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		b, _ := strconv.ParseBool(v)
		return b
	case int, int64, float64:
		return fmt.Sprint(v) != "0"
	}
	return false
}

func toInt(v any) int {
	switch v := v.(type) {
	case int:
		return v
	case int64:
		return int(v)
	case float64:
		return int(v)
	case string:
		n, _ := strconv.Atoi(v)
		return n
	}
	return 0
}

func toStrings(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			out = append(out, strOr(x, ""))
		}
		return out
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
