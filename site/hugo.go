package site

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// hugoConfig is what Hugo's configuration says about paths, read as Hugo v0.165 reads it
// (config/allconfig): keys are case-insensitive, config/_default and config/<environment> merge
// over the root hugo.* or config.* file.
type hugoConfig struct {
	env             string     // HUGO_ENVIRONMENT, "production" by default
	langs           []hugoLang // configured, enabled languages, by weight then code
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
	cascades        []hugoCascade // config-level cascade
	raw             map[string]any
}

type hugoLang struct {
	code       string
	weight     int
	contentDir string // absolute; "" when the language shares the site's contentDir
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

func (h *hugoConfig) hasLang(code string) bool {
	for _, l := range h.langs {
		if l.code == code {
			return true
		}
	}
	return false
}

func (h *hugoConfig) ugly(section string) bool {
	if h.uglyAll {
		return true
	}
	return h.uglySections[section]
}

var hugoConfigExts = []string{"toml", "yaml", "yml", "json"}

// openHugo reads the site's Hugo configuration.
func (s *Site) openHugo() error {
	h := &hugoConfig{env: s.opt.Env("HUGO_ENVIRONMENT")}
	if h.env == "" {
		h.env = s.opt.Env("HUGO_ENV")
	}
	if h.env == "" {
		h.env = "production"
	}
	cfg := map[string]any{}
	// The root file: hugo.* wins over config.* (allconfig/load.go looks for hugo first).
	for _, base := range []string{"hugo", "config"} {
		found := false
		for _, ext := range hugoConfigExts {
			p := filepath.Join(s.Root, base+"."+ext)
			if !fileExists(p) {
				continue
			}
			m, err := readConfigFile(p)
			if err != nil {
				return err
			}
			mergeInto(cfg, m)
			s.ConfigFiles = append(s.ConfigFiles, p)
			found = true
			break
		}
		if found {
			break
		}
	}
	for _, dir := range []string{"_default", h.env} {
		files, err := s.readConfigDir(filepath.Join(s.Root, "config", dir))
		if err != nil {
			return err
		}
		mergeInto(cfg, files)
	}
	h.raw = cfg
	if err := h.decode(s, cfg); err != nil {
		return err
	}
	s.hugo = h
	return nil
}

// readConfigDir reads one folder of config/: hugo.* and config.* hold top-level keys, every other
// file the key it is named after ("params.toml"), "menus.en.toml" a language's key.
func (s *Site) readConfigDir(dir string) (map[string]any, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	out := map[string]any{}
	for _, e := range ents {
		ext := strings.TrimPrefix(path.Ext(e.Name()), ".")
		if e.IsDir() || !contains(hugoConfigExts, ext) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		m, err := readConfigFile(p)
		if err != nil {
			return nil, err
		}
		s.ConfigFiles = append(s.ConfigFiles, p)
		name := strings.ToLower(strings.TrimSuffix(e.Name(), "."+ext))
		key, lang, _ := strings.Cut(name, ".")
		switch {
		case key == "hugo" || key == "config":
			mergeInto(out, m)
		case key == "languages" && lang == "":
			mergeInto(out, map[string]any{"languages": m})
		case lang != "":
			mergeInto(out, map[string]any{"languages": map[string]any{lang: map[string]any{key: m}}})
		default:
			mergeInto(out, map[string]any{key: m})
		}
	}
	return out, nil
}

// readConfigFile decodes a TOML, YAML or JSON file into a map with lower-case keys.
func readConfigFile(p string) (map[string]any, error) {
	src, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	m, err := decodeMap(src, strings.TrimPrefix(filepath.Ext(p), "."))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return m, nil
}

func decodeMap(src []byte, format string) (map[string]any, error) {
	var v any
	switch format {
	case "toml":
		m := map[string]any{}
		if _, err := toml.Decode(string(src), &m); err != nil {
			return nil, err
		}
		v = m
	case "yaml", "yml":
		if len(bytes.TrimSpace(src)) == 0 {
			return map[string]any{}, nil
		}
		if err := yaml.Unmarshal(src, &v); err != nil {
			return nil, err
		}
	case "json":
		if err := json.Unmarshal(src, &v); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown config format %q", format)
	}
	m, ok := lowerKeys(v).(map[string]any)
	if !ok {
		if v == nil {
			return map[string]any{}, nil
		}
		return nil, fmt.Errorf("want a map at the top, got %T", v)
	}
	return m, nil
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

	h.defaultLang = strings.ToLower(strOr(cfg["defaultcontentlanguage"], "en"))
	h.defaultInSubdir = toBool(cfg["defaultcontentlanguageinsubdir"])
	h.keepCase = toBool(cfg["disablepathtolower"])
	h.pluralizeTitles = cfg["pluralizelisttitles"] == nil || toBool(cfg["pluralizelisttitles"])
	h.disableAliases = toBool(cfg["disablealiases"])
	h.buildDrafts = toBool(cfg["builddrafts"])
	h.buildFuture = toBool(cfg["buildfuture"])
	h.buildExpired = toBool(cfg["buildexpired"])

	disabledLangs := map[string]bool{}
	for _, l := range toStrings(cfg["disablelanguages"]) {
		disabledLangs[strings.ToLower(l)] = true
	}
	if langs, ok := cfg["languages"].(map[string]any); ok {
		for code, v := range langs {
			lm, _ := v.(map[string]any)
			if disabledLangs[code] || toBool(lm["disabled"]) {
				continue
			}
			l := hugoLang{code: code, weight: toInt(lm["weight"])}
			if cd := strOr(lm["contentdir"], ""); cd != "" {
				l.contentDir = s.abs(cd)
			}
			h.langs = append(h.langs, l)
		}
	}
	if len(h.langs) == 0 {
		h.langs = []hugoLang{{code: h.defaultLang}}
	}
	sort.Slice(h.langs, func(i, j int) bool {
		a, b := h.langs[i], h.langs[j]
		if a.weight != b.weight {
			// Weight 0 sorts last (Hugo's langs.Languages sort).
			if a.weight == 0 || b.weight == 0 {
				return b.weight == 0
			}
			return a.weight < b.weight
		}
		return a.code < b.code
	})

	// Content roots: module mounts with target "content" replace contentDir (modules/config.go
	// adds the default mount only when the project mounts nothing to content).
	if mod, ok := cfg["module"].(map[string]any); ok {
		mounts, _ := mod["mounts"].([]any)
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
			h.roots = append(h.roots, hugoRoot{dir: s.abs(strOr(mm["source"], "")), lang: lang, under: strings.Trim(under, "/")})
		}
	}
	if len(h.roots) == 0 {
		h.roots = append(h.roots, hugoRoot{dir: s.Content})
		for _, l := range h.langs {
			if l.contentDir != "" && l.contentDir != s.Content {
				h.roots = append(h.roots, hugoRoot{dir: l.contentDir, lang: l.code})
			}
		}
	}

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
		return fmt.Errorf("%s: permalinks: %w", s.Root, err)
	}

	h.taxonomies = map[string]string{"tags": "tag", "categories": "category"}
	if t, ok := cfg["taxonomies"].(map[string]any); ok {
		h.taxonomies = map[string]string{}
		for singular, plural := range t {
			if p := strOr(plural, ""); p != "" {
				h.taxonomies[strings.ToLower(p)] = singular
			}
		}
	}
	h.disableKinds = map[string]bool{}
	for _, k := range toStrings(cfg["disablekinds"]) {
		h.disableKinds[strings.ToLower(k)] = true
	}
	h.pagerPath = "page"
	if p, ok := cfg["pagination"].(map[string]any); ok {
		h.pagerPath = strOr(p["path"], h.pagerPath)
	} else if p := strOr(cfg["paginatepath"], ""); p != "" {
		h.pagerPath = p
	}
	h.cascades = decodeCascades(cfg["cascade"], s.configName(), 0)
	var errs []error
	for i := range h.cascades {
		if err := h.cascades[i].readInputs(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// decodePermalinks reads the permalinks setting in its three forms (resources/page/permalinks.go):
// a list of {target, pattern}, a legacy "section = pattern" map (for kinds page and term), or a
// map per kind.
func (h *hugoConfig) decodePermalinks(v any) error {
	switch v := v.(type) {
	case nil:
		return nil
	case []any:
		for _, x := range v {
			m, _ := x.(map[string]any)
			pat, ok := m["pattern"].(string)
			if !ok {
				return fmt.Errorf("missing pattern")
			}
			t, _ := m["target"].(map[string]any)
			h.permalinks = append(h.permalinks, hugoPermalink{
				kind:    strings.ToLower(strOr(t["kind"], "")),
				glob:    strings.ToLower(strOr(t["path"], "")),
				pattern: pat,
			})
		}
	case map[string]any:
		// Go randomises map order and so does Hugo; sorted keys keep ours stable.
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch x := v[k].(type) {
			case string:
				g := sectionGlob(k)
				h.permalinks = append(h.permalinks, hugoPermalink{kind: "page", glob: g, pattern: x},
					hugoPermalink{kind: "term", glob: g, pattern: x})
			case map[string]any:
				if !contains([]string{"page", "section", "taxonomy", "term"}, k) {
					return fmt.Errorf("kind %q not supported", k)
				}
				secs := make([]string, 0, len(x))
				for s := range x {
					secs = append(secs, s)
				}
				sort.Strings(secs)
				for _, sec := range secs {
					h.permalinks = append(h.permalinks, hugoPermalink{kind: k, glob: sectionGlob(sec), pattern: strOr(x[sec], "")})
				}
			default:
				return fmt.Errorf("unknown value for key %q", k)
			}
		}
	default:
		return fmt.Errorf("unsupported value %T", v)
	}
	return nil
}

func sectionGlob(section string) string {
	section = strings.Trim(section, " /")
	if section == "" {
		return "/*"
	}
	return "/{" + section + "," + section + "/**}"
}

// hugoPagerParent maps a paginated list page's URL to the URL of the list page it continues:
// "/blog/page/2/" to "/blog/" and "/page/3/" to "/" (page 1 is a redirect stub to the list).
// With uglyURLs the list is written as Hugo writes it: "/blog/index.html", "/tags/go.html" for
// a term (whose pagers are "/tags/go/page/2.html").
func (s *Site) hugoPagerParent(url string) (string, bool) {
	h := s.hugo
	pp := "page"
	if h != nil && h.pagerPath != "" {
		pp = strings.Trim(h.pagerPath, "/")
	}
	rest, ok := strings.CutSuffix(url, "/index.html")
	if !ok {
		rest, ok = strings.CutSuffix(url, ".html")
	}
	if !ok {
		rest = strings.TrimSuffix(url, "/")
	}
	i := strings.LastIndexByte(rest, '/')
	if i < 0 {
		return "", false
	}
	n, err := strconv.Atoi(rest[i+1:])
	if err != nil || n < 1 || rest[i+1] == '0' || rest[i+1] == '+' {
		return "", false
	}
	parent, ok := strings.CutSuffix(rest[:i], "/"+pp)
	if !ok {
		return "", false
	}
	parent += "/"
	if h == nil {
		return parent, true
	}
	segs := strings.Split(strings.Trim(parent, "/"), "/")
	if len(segs) > 0 && h.hasLang(segs[0]) && h.prefix(segs[0]) != "" {
		segs = segs[1:]
	}
	if len(segs) > 0 && segs[0] != "" && h.ugly(segs[0]) {
		if _, tax := h.taxonomies[segs[0]]; tax && len(segs) == 2 {
			return strings.TrimSuffix(parent, "/") + ".html", true
		}
		return parent + "index.html", true
	}
	if h.uglyAll && (len(segs) == 0 || segs[0] == "") {
		return parent + "index.html", true
	}
	return parent, true
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

// configName is the first configuration file read, relative to the root, for naming the source
// of config-level cascades.
func (s *Site) configName() string {
	if len(s.ConfigFiles) == 0 {
		return ""
	}
	return s.rel(s.ConfigFiles[0])
}
